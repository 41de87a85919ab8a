// A Paperspace team's guardrails as its administrators set them (migration 030): the rules, the
// machines exempted from them, each machine's extension, and the warnings and stops claimed once
// across replicas. What the rules mean for a machine is the policies feature's (features/policies/).
import type { SqlClient } from './sql-client.js';

/** Off-hours begin at `start` on the `days` named, in `timezone`, and end at `end` (both `HH:MM`). */
export interface OffHoursRule {
  start: string;
  end: string;
  days: 'weekdays' | 'daily';
  timezone: string;
}

/** The rules a team may set, by kind; each is stored as JSON under its kind. */
interface PolicyRuleKinds {
  max_run: { ms: number };
  off_hours: OffHoursRule;
  /** Paperspace's own shutdown of a machine nobody is logged into, set on the team's machines. */
  idle: { hours: number };
}

export type PolicyKind = keyof PolicyRuleKinds;

/** Which team a rule is for: the Slack workspace and the Paperspace team within it. */
export interface PolicyTeam {
  teamId: string;
  paperspaceTeamId: string;
}

/** A rule in force, with the Slack user who set it and when. */
type SetRule<K extends PolicyKind> = PolicyRuleKinds[K] & { setBy: string; setAt: number };

export type TeamPolicies = { [K in PolicyKind]?: SetRule<K> };

export interface PolicyExemption {
  machineId: string;
  machineName: string;
  untilAt: number;
  setBy: string;
}

/** What a stop or a warning is claimed for: the rule, and the moment the stop was due. */
export interface PolicyStep {
  machineId: string;
  kind: PolicyKind;
  dueAt: number;
  /** `extend`: an administrator's approval of a member's Keep running, decided once. */
  step: 'warn' | 'stop' | 'extend';
}

export interface TeamPolicyRepository {
  rules(team: PolicyTeam): Promise<TeamPolicies>;
  setRule<K extends PolicyKind>(
    team: PolicyTeam,
    kind: K,
    rule: PolicyRuleKinds[K],
    by: { setBy: string; at: number },
  ): Promise<void>;
  /** Removes one rule, or every rule and exemption of the team (`kind` undefined). */
  clear(team: PolicyTeam, kind?: PolicyKind): Promise<number>;
  exempt(team: PolicyTeam, exemption: PolicyExemption, at: number): Promise<void>;
  /** The team's exemptions still in force at `now`. */
  exemptions(team: PolicyTeam, now: number): Promise<PolicyExemption[]>;
  /** Moves a machine's stop under `kind` to `untilAt`, replacing an earlier extension. */
  extend(
    teamId: string,
    machineId: string,
    kind: PolicyKind,
    untilAt: number,
    by: string,
    at: number,
  ): Promise<void>;
  /** Each machine's extensions: `${machineId}/${kind}` to the moment it runs until. */
  extensions(teamId: string, machineIds: readonly string[]): Promise<Map<string, number>>;
  /** True for the one caller (of every replica) that may make this warning or stop. */
  claim(teamId: string, step: PolicyStep, at: number): Promise<boolean>;
  /** Gives a claim back, when nothing was done under it, so the next check tries again. */
  release(teamId: string, step: PolicyStep): Promise<void>;
  /** Forgets claims made before `before` and exemptions and extensions over by then. */
  prune(before: number): Promise<number>;
}

type RuleRow = { kind: PolicyKind; rule: string; set_by: string; set_at: number };
type ExemptionRow = { machine_id: string; machine_name: string; until_at: number; set_by: string };

export const extensionKey = (machineId: string, kind: PolicyKind) => `${machineId}/${kind}`;

export function createTeamPolicyRepository(db: SqlClient): TeamPolicyRepository {
  return {
    async rules(team) {
      const rows = await db.all<RuleRow>(
        'SELECT kind, rule, set_by, set_at FROM policy_rules WHERE slack_team_id = ? AND paperspace_team_id = ?',
        [team.teamId, team.paperspaceTeamId],
      );
      const policies: Record<string, unknown> = {};
      for (const row of rows) {
        policies[row.kind] = { ...JSON.parse(row.rule), setBy: row.set_by, setAt: Number(row.set_at) };
      }
      return policies as TeamPolicies;
    },

    async setRule(team, kind, rule, { setBy, at }) {
      await db.run(
        `INSERT INTO policy_rules (slack_team_id, paperspace_team_id, kind, rule, set_by, set_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_team_id, kind)
         DO UPDATE SET rule = excluded.rule, set_by = excluded.set_by, set_at = excluded.set_at`,
        [team.teamId, team.paperspaceTeamId, kind, JSON.stringify(rule), setBy, at],
      );
    },

    async clear(team, kind) {
      const where = 'slack_team_id = ? AND paperspace_team_id = ?';
      const params = [team.teamId, team.paperspaceTeamId];
      if (kind !== undefined) {
        return (await db.run(`DELETE FROM policy_rules WHERE ${where} AND kind = ?`, [...params, kind]))
          .changes;
      }
      return db.transaction(async (tx) => {
        const rules = await tx.run(`DELETE FROM policy_rules WHERE ${where}`, params);
        await tx.run(`DELETE FROM policy_exemptions WHERE ${where}`, params);
        return rules.changes;
      });
    },

    async exempt(team, exemption, at) {
      await db.run(
        `INSERT INTO policy_exemptions
           (slack_team_id, paperspace_team_id, machine_id, machine_name, until_at, set_by, set_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, machine_id)
         DO UPDATE SET paperspace_team_id = excluded.paperspace_team_id, machine_name = excluded.machine_name,
           until_at = excluded.until_at, set_by = excluded.set_by, set_at = excluded.set_at`,
        [
          team.teamId,
          team.paperspaceTeamId,
          exemption.machineId,
          exemption.machineName,
          exemption.untilAt,
          exemption.setBy,
          at,
        ],
      );
    },

    async exemptions(team, now) {
      const rows = await db.all<ExemptionRow>(
        `SELECT machine_id, machine_name, until_at, set_by FROM policy_exemptions
         WHERE slack_team_id = ? AND paperspace_team_id = ? AND until_at > ? ORDER BY machine_name`,
        [team.teamId, team.paperspaceTeamId, now],
      );
      return rows.map((row) => ({
        machineId: row.machine_id,
        machineName: row.machine_name,
        untilAt: Number(row.until_at),
        setBy: row.set_by,
      }));
    },

    async extend(teamId, machineId, kind, untilAt, by, at) {
      await db.run(
        `INSERT INTO policy_extensions (slack_team_id, machine_id, kind, until_at, granted_by, granted_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, machine_id, kind)
         DO UPDATE SET until_at = excluded.until_at, granted_by = excluded.granted_by, granted_at = excluded.granted_at`,
        [teamId, machineId, kind, untilAt, by, at],
      );
    },

    async extensions(teamId, machineIds) {
      if (machineIds.length === 0) return new Map();
      const rows = await db.all<{ machine_id: string; kind: PolicyKind; until_at: number }>(
        `SELECT machine_id, kind, until_at FROM policy_extensions
         WHERE slack_team_id = ? AND machine_id IN (${machineIds.map(() => '?').join(', ')})`,
        [teamId, ...machineIds],
      );
      return new Map(rows.map((row) => [extensionKey(row.machine_id, row.kind), Number(row.until_at)]));
    },

    async claim(teamId, step, at) {
      const { changes } = await db.run(
        `INSERT INTO policy_claims (slack_team_id, machine_id, kind, due_at, step, claimed_at)
         VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT DO NOTHING`,
        [teamId, step.machineId, step.kind, step.dueAt, step.step, at],
      );
      return changes === 1;
    },

    async release(teamId, step) {
      await db.run(
        `DELETE FROM policy_claims
         WHERE slack_team_id = ? AND machine_id = ? AND kind = ? AND due_at = ? AND step = ?`,
        [teamId, step.machineId, step.kind, step.dueAt, step.step],
      );
    },

    prune: (before) =>
      db.transaction(async (tx) => {
        const claims = await tx.run('DELETE FROM policy_claims WHERE claimed_at < ?', [before]);
        const exemptions = await tx.run('DELETE FROM policy_exemptions WHERE until_at < ?', [before]);
        const extensions = await tx.run('DELETE FROM policy_extensions WHERE until_at < ?', [before]);
        return claims.changes + exemptions.changes + extensions.changes;
      }),
  };
}
