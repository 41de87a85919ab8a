// Budgets of each Paperspace team in a Slack workspace: the team's and each person's, in whole cents a
// calendar month, with the month's spend as the last count found it. The gate before a start or a
// create reads that count, so it costs Paperspace nothing; the count is refreshed by one replica per
// interval (claimCheck), and each 50/80/100% alert is claimed once a month per budget (claimAlert),
// so two replicas, or one restarted, never send it twice.
import type { SqlClient } from './sql-client.js';

/** Whose a budget is: the whole team's, or one Slack user's. */
export type BudgetSubject = 'team' | { userId: string };

export interface Budget {
  teamId: string;
  paperspaceTeamId: string;
  subject: BudgetSubject;
  amountCents: number;
  setBy: string;
  setAt: number;
  /** What the month `spentMonth` had cost when last counted; null before the first count. */
  spentCents: number | null;
  spentMonth: string | null;
  spentAt: number | null;
}

/** Where a budget is kept: its workspace, its Paperspace team, and whose it is. */
interface BudgetPlace {
  teamId: string;
  paperspaceTeamId: string;
  subject: BudgetSubject;
}

export interface BudgetRepository {
  /** Sets (or replaces) the budget; the spend already counted for it stays. */
  set(input: BudgetPlace & { amountCents: number; setBy: string; at: number }): Promise<void>;
  /** Removes one budget, or every budget of the team when `subject` is undefined; returns how many. */
  remove(teamId: string, paperspaceTeamId: string, subject?: BudgetSubject): Promise<number>;
  list(teamId: string, paperspaceTeamId: string): Promise<Budget[]>;
  /** Every budget the bot holds, for the alert job. */
  listAll(): Promise<Budget[]>;
  /** The month's spend, as counted at `at`, of each budget of the team it names. */
  recordSpend(input: {
    teamId: string;
    paperspaceTeamId: string;
    month: string;
    at: number;
    spent: ReadonlyArray<{ subject: BudgetSubject; cents: number }>;
  }): Promise<void>;
  /**
   * Claims the count of the team's spend: true for one caller when none was claimed since
   * `notBefore`, false for the rest (another replica or person counted it lately).
   */
  claimCheck(teamId: string, paperspaceTeamId: string, at: number, notBefore: number): Promise<boolean>;
  /** Claims a budget's alert at `threshold` percent in `month`: true for exactly one caller, ever. */
  claimAlert(
    place: BudgetPlace & { month: string; threshold: number },
    claim: { by: string; at: number },
  ): Promise<boolean>;
}

const TEAM = 'team';

const subjectKey = (subject: BudgetSubject) => (subject === 'team' ? TEAM : subject.userId);
const subjectOf = (key: string): BudgetSubject => (key === TEAM ? 'team' : { userId: key });

type Row = {
  slack_team_id: string;
  paperspace_team_id: string;
  subject: string;
  amount_cents: number;
  set_by: string;
  set_at: number;
  spent_cents: number | null;
  spent_month: string | null;
  spent_at: number | null;
};

const fromRow = (row: Row): Budget => ({
  teamId: row.slack_team_id,
  paperspaceTeamId: row.paperspace_team_id,
  subject: subjectOf(row.subject),
  amountCents: Number(row.amount_cents),
  setBy: row.set_by,
  setAt: Number(row.set_at),
  spentCents: row.spent_cents === null ? null : Number(row.spent_cents),
  spentMonth: row.spent_month,
  spentAt: row.spent_at === null ? null : Number(row.spent_at),
});

/** The team's budget first, then people's by Slack id: the order every list shows. */
const ORDER = `ORDER BY CASE WHEN subject = '${TEAM}' THEN 0 ELSE 1 END, subject`;

export function createBudgetRepository(db: SqlClient): BudgetRepository {
  return {
    async set({ teamId, paperspaceTeamId, subject, amountCents, setBy, at }) {
      await db.run(
        `INSERT INTO budgets (slack_team_id, paperspace_team_id, subject, amount_cents, set_by, set_at)
         VALUES (?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_team_id, subject)
         DO UPDATE SET amount_cents = excluded.amount_cents, set_by = excluded.set_by, set_at = excluded.set_at`,
        [teamId, paperspaceTeamId, subjectKey(subject), amountCents, setBy, at],
      );
    },

    async remove(teamId, paperspaceTeamId, subject) {
      const which = subject === undefined ? [] : [subjectKey(subject)];
      const { changes } = await db.run(
        `DELETE FROM budgets WHERE slack_team_id = ? AND paperspace_team_id = ?${subject === undefined ? '' : ' AND subject = ?'}`,
        [teamId, paperspaceTeamId, ...which],
      );
      return changes;
    },

    async list(teamId, paperspaceTeamId) {
      const rows = await db.all<Row>(
        `SELECT * FROM budgets WHERE slack_team_id = ? AND paperspace_team_id = ? ${ORDER}`,
        [teamId, paperspaceTeamId],
      );
      return rows.map(fromRow);
    },

    async listAll() {
      const rows = await db.all<Row>(
        `SELECT * FROM budgets ORDER BY slack_team_id, paperspace_team_id, subject`,
      );
      return rows.map(fromRow);
    },

    async recordSpend({ teamId, paperspaceTeamId, month, at, spent }) {
      await db.transaction(async (tx) => {
        for (const { subject, cents } of spent) {
          await tx.run(
            `UPDATE budgets SET spent_cents = ?, spent_month = ?, spent_at = ?
             WHERE slack_team_id = ? AND paperspace_team_id = ? AND subject = ?`,
            [cents, month, at, teamId, paperspaceTeamId, subjectKey(subject)],
          );
        }
      });
    },

    async claimCheck(teamId, paperspaceTeamId, at, notBefore) {
      const { changes } = await db.run(
        `INSERT INTO budget_checks (slack_team_id, paperspace_team_id, checked_at) VALUES (?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_team_id)
         DO UPDATE SET checked_at = excluded.checked_at WHERE budget_checks.checked_at < ?`,
        [teamId, paperspaceTeamId, at, notBefore],
      );
      return changes === 1;
    },

    async claimAlert({ teamId, paperspaceTeamId, subject, month, threshold }, { by, at }) {
      const { changes } = await db.run(
        `INSERT INTO budget_alerts
           (slack_team_id, paperspace_team_id, subject, month, threshold, claimed_by, claimed_at)
         VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, paperspace_team_id, subject, month, threshold) DO NOTHING`,
        [teamId, paperspaceTeamId, subjectKey(subject), month, threshold, by, at],
      );
      return changes === 1;
    },
  };
}
