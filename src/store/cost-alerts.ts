// What the cost guard keeps: thresholds (a person's own, or the workspace default), the runs of the
// machines it follows, the machines a person excluded, the alerts it posted and where their messages
// are. An alert is claimed by inserting its (machine, arming) key before it is posted, so across
// replicas it is posted once, whichever linked person's list saw the machine.
import type { SlackUser } from './slack-user.js';
import { placeholders, type SqlClient } from './sql-client.js';

/** A threshold in milliseconds; null is "off". */
type Threshold = number | null;

export interface MachineRun {
  machineId: string;
  /**
   * The Slack person whose list began following the run. Not who is alerted (the owner rule decides
   * that): only whose list must still show the machine for the run to go on (endRunsExcept).
   */
  owner: SlackUser;
  runningSince: number;
  /** True when no event said when it started: runningSince is when the bot first saw it running. */
  sinceEstimated: boolean;
  /** Set by "Keep running": no alert before this time. */
  keptUntil: number | null;
}

export interface CostAlertRepository {
  /** The person's own threshold: a number, null for off, undefined when they never set one. */
  threshold(user: SlackUser): Promise<Threshold | undefined>;
  setThreshold(user: SlackUser, threshold: Threshold, at: number): Promise<void>;
  /** The workspace default an administrator set; undefined when none was. */
  teamDefault(teamId: string): Promise<Threshold | undefined>;
  setTeamDefault(teamId: string, threshold: Threshold, at: number): Promise<void>;
  /** The runs of these machines that are followed. */
  runs(machineIds: readonly string[]): Promise<MachineRun[]>;
  /** Starts following a run; an existing one (another replica was faster) is left as it is. */
  beginRun(run: Omit<MachineRun, 'keptUntil'>): Promise<void>;
  /**
   * The machines were seen stopped: their runs are over, and so is any "Keep running", whoever's list
   * began following them (on a team key everyone's list shows the same machine).
   */
  endRuns(teamId: string, machineIds: readonly string[]): Promise<void>;
  /** Ends the owner's runs of every machine but these (the ones a whole list still shows them). */
  endRunsExcept(owner: SlackUser, machineIds: readonly string[]): Promise<void>;
  /** "Keep running": no alert for this run before `until`. False when the run is no longer followed. */
  keep(machineId: string, until: number): Promise<boolean>;
  /** "Not this machine": `user` is never alerted about it; its name is kept for `/ps alerts`. */
  exclude(user: SlackUser, machine: MutedMachine, at: number): Promise<void>;
  excluded(user: SlackUser): Promise<Set<string>>;
  /** The machines `user` muted, oldest first. */
  muted(user: SlackUser): Promise<MutedMachine[]>;
  /** Alerts about the machine again; false when it was not muted. */
  unmute(user: SlackUser, machineId: string): Promise<boolean>;
  /** Where an alert about these machines was posted, so a stop made elsewhere can end its rows. */
  recordMessage(teamId: string, machineIds: readonly string[], place: AlertPlace, at: number): Promise<void>;
  /** The alert messages posted about these machines that no ended run has closed yet. */
  messagesAbout(teamId: string, machineIds: readonly string[]): Promise<AlertMessage[]>;
  /** Forgets the alert messages about these machines (their rows were ended). */
  forgetMessages(teamId: string, machineIds: readonly string[]): Promise<void>;
  /** Claims the alert of this arming. True for exactly one caller, the one that posts it. */
  claimAlert(machineId: string, arming: number, owner: SlackUser, at: number): Promise<boolean>;
  /** Gives a claim back when its alert could not be posted, so a later check posts it. */
  releaseAlert(machineId: string, arming: number): Promise<void>;
  /**
   * Deletes up to `limit` claims posted before `before` whose arming no longer belongs to a followed
   * run; answers how many. A claim keeps its alert from being posted twice only while its run is
   * followed with that arming: a stop ends the run (the next one starts later) and "Keep running"
   * arms it anew. The age is a second guard, for a run ended and begun again from the same start.
   */
  pruneSettledAlertsBefore(before: number, limit: number): Promise<number>;
}

interface MutedMachine {
  id: string;
  /** The name it had when muted; null for one muted before names were kept. */
  name: string | null;
}

/** A conversation and message ts of Slack's. */
interface AlertPlace {
  channel: string;
  ts: string;
}

interface AlertMessage extends AlertPlace {
  machineId: string;
}

/** The slack_user_id of a workspace's default threshold: no Slack user id is empty. */
const TEAM_DEFAULT = '';

type RunRow = {
  machine_id: string;
  slack_team_id: string;
  slack_user_id: string;
  running_since: number | string;
  since_estimated: number;
  kept_until: number | string | null;
};

const fromRunRow = (row: RunRow): MachineRun => ({
  machineId: row.machine_id,
  owner: { teamId: row.slack_team_id, userId: row.slack_user_id },
  runningSince: Number(row.running_since),
  sinceEstimated: Number(row.since_estimated) === 1,
  keptUntil: row.kept_until === null ? null : Number(row.kept_until),
});

export function createCostAlertRepository(db: SqlClient): CostAlertRepository {
  const readThreshold = async (teamId: string, userId: string): Promise<Threshold | undefined> => {
    const row = await db.get<{ threshold_ms: number | string | null }>(
      'SELECT threshold_ms FROM cost_alert_settings WHERE slack_team_id = ? AND slack_user_id = ?',
      [teamId, userId],
    );
    if (row === undefined) return undefined;
    return row.threshold_ms === null ? null : Number(row.threshold_ms);
  };
  const writeThreshold = async (teamId: string, userId: string, threshold: Threshold, at: number) => {
    await db.run(
      `INSERT INTO cost_alert_settings (slack_team_id, slack_user_id, threshold_ms, set_at) VALUES (?, ?, ?, ?)
       ON CONFLICT (slack_team_id, slack_user_id)
       DO UPDATE SET threshold_ms = excluded.threshold_ms, set_at = excluded.set_at`,
      [teamId, userId, threshold, at],
    );
  };

  return {
    threshold: (user) => readThreshold(user.teamId, user.userId),
    setThreshold: (user, threshold, at) => writeThreshold(user.teamId, user.userId, threshold, at),
    teamDefault: (teamId) => readThreshold(teamId, TEAM_DEFAULT),
    setTeamDefault: (teamId, threshold, at) => writeThreshold(teamId, TEAM_DEFAULT, threshold, at),

    async runs(machineIds) {
      if (machineIds.length === 0) return [];
      const rows = await db.all<RunRow>(
        `SELECT * FROM cost_alert_runs WHERE machine_id IN (${placeholders(machineIds.length)})`,
        machineIds,
      );
      return rows.map(fromRunRow);
    },

    async beginRun(run) {
      await db.run(
        `INSERT INTO cost_alert_runs (machine_id, slack_team_id, slack_user_id, running_since, since_estimated)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (machine_id) DO NOTHING`,
        [run.machineId, run.owner.teamId, run.owner.userId, run.runningSince, run.sinceEstimated ? 1 : 0],
      );
    },

    async endRuns(teamId, machineIds) {
      if (machineIds.length === 0) return;
      await db.run(
        `DELETE FROM cost_alert_runs WHERE slack_team_id = ?
         AND machine_id IN (${placeholders(machineIds.length)})`,
        [teamId, ...machineIds],
      );
    },

    async endRunsExcept(owner, machineIds) {
      const except =
        machineIds.length === 0 ? '' : `AND machine_id NOT IN (${placeholders(machineIds.length)})`;
      await db.run(`DELETE FROM cost_alert_runs WHERE slack_team_id = ? AND slack_user_id = ? ${except}`, [
        owner.teamId,
        owner.userId,
        ...machineIds,
      ]);
    },

    async keep(machineId, until) {
      const { changes } = await db.run('UPDATE cost_alert_runs SET kept_until = ? WHERE machine_id = ?', [
        until,
        machineId,
      ]);
      return changes > 0;
    },

    async exclude(user, machine, at) {
      await db.run(
        `INSERT INTO cost_alert_exclusions (slack_team_id, slack_user_id, machine_id, machine_name, created_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (slack_team_id, slack_user_id, machine_id) DO NOTHING`,
        [user.teamId, user.userId, machine.id, machine.name, at],
      );
    },

    async muted(user) {
      const rows = await db.all<{ machine_id: string; machine_name: string | null }>(
        `SELECT machine_id, machine_name FROM cost_alert_exclusions
         WHERE slack_team_id = ? AND slack_user_id = ? ORDER BY created_at, machine_id`,
        [user.teamId, user.userId],
      );
      return rows.map((row) => ({ id: row.machine_id, name: row.machine_name }));
    },

    async unmute(user, machineId) {
      const { changes } = await db.run(
        'DELETE FROM cost_alert_exclusions WHERE slack_team_id = ? AND slack_user_id = ? AND machine_id = ?',
        [user.teamId, user.userId, machineId],
      );
      return changes > 0;
    },

    async recordMessage(teamId, machineIds, place, at) {
      for (const machineId of machineIds) {
        await db.run(
          `INSERT INTO cost_alert_messages (slack_team_id, machine_id, channel, ts, posted_at)
           VALUES (?, ?, ?, ?, ?) ON CONFLICT (slack_team_id, machine_id, channel, ts) DO NOTHING`,
          [teamId, machineId, place.channel, place.ts, at],
        );
      }
    },

    async messagesAbout(teamId, machineIds) {
      if (machineIds.length === 0) return [];
      const rows = await db.all<{ machine_id: string; channel: string; ts: string }>(
        `SELECT machine_id, channel, ts FROM cost_alert_messages
         WHERE slack_team_id = ? AND machine_id IN (${placeholders(machineIds.length)})
         ORDER BY posted_at, channel, ts`,
        [teamId, ...machineIds],
      );
      return rows.map((row) => ({ machineId: row.machine_id, channel: row.channel, ts: row.ts }));
    },

    async forgetMessages(teamId, machineIds) {
      if (machineIds.length === 0) return;
      await db.run(
        `DELETE FROM cost_alert_messages WHERE slack_team_id = ?
         AND machine_id IN (${placeholders(machineIds.length)})`,
        [teamId, ...machineIds],
      );
    },

    async excluded(user) {
      const rows = await db.all<{ machine_id: string }>(
        'SELECT machine_id FROM cost_alert_exclusions WHERE slack_team_id = ? AND slack_user_id = ?',
        [user.teamId, user.userId],
      );
      return new Set(rows.map((row) => row.machine_id));
    },

    async claimAlert(machineId, arming, owner, at) {
      const { changes } = await db.run(
        `INSERT INTO cost_alerts (machine_id, arming, slack_team_id, slack_user_id, posted_at)
         VALUES (?, ?, ?, ?, ?) ON CONFLICT (machine_id, arming) DO NOTHING`,
        [machineId, arming, owner.teamId, owner.userId, at],
      );
      return changes === 1;
    },

    async releaseAlert(machineId, arming) {
      await db.run('DELETE FROM cost_alerts WHERE machine_id = ? AND arming = ?', [machineId, arming]);
    },

    async pruneSettledAlertsBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM cost_alerts WHERE (machine_id, arming) IN (
           SELECT machine_id, arming FROM cost_alerts AS claim
           WHERE posted_at < ? AND NOT EXISTS (
             SELECT 1 FROM cost_alert_runs AS run
             WHERE run.machine_id = claim.machine_id
               AND COALESCE(run.kept_until, run.running_since) = claim.arming)
           ORDER BY posted_at, machine_id LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },
  };
}
