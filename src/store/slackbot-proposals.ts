// What Slackbot proposed for a person and whether they decided it (migration 028). A proposal is
// decided once: `decide` is one conditional UPDATE, so of two clicks on any replicas one wins, and a
// proposal past its expiry can no longer be confirmed.
import type { SlackUser } from './slack-user.js';
import type { SqlClient } from './sql-client.js';

export type ProposalDecision = 'confirmed' | 'cancelled';

export interface SlackbotProposal {
  id: string;
  user: SlackUser;
  /** The operation's name, as the catalogue knows it (`stop`, `share`). */
  operation: string;
  /** The operation's parameters, as JSON: checked against its schema again when it runs. */
  params: unknown;
  /** What will happen, in the words the person was shown. */
  summary: string;
  createdAt: number;
  expiresAt: number;
  decidedAt: number | null;
  decision: ProposalDecision | null;
}

export interface SlackbotProposalRepository {
  add(proposal: Omit<SlackbotProposal, 'decidedAt' | 'decision'>): Promise<void>;
  get(id: string): Promise<SlackbotProposal | undefined>;
  /**
   * Marks the proposal decided when it is still open and (for a confirmation) unexpired at `at`.
   * True for exactly one caller across every replica.
   */
  decide(id: string, decision: ProposalDecision, at: number): Promise<boolean>;
  /** Forgets proposals that expired before `before`; returns how many. */
  pruneExpired(before: number): Promise<number>;
}

interface ProposalRow {
  [column: string]: unknown;
  id: string;
  slack_team_id: string;
  slack_user_id: string;
  operation: string;
  params: string;
  summary: string;
  created_at: number;
  expires_at: number;
  decided_at: number | null;
  decision: string | null;
}

function fromRow(row: ProposalRow): SlackbotProposal {
  return {
    id: row.id,
    user: { teamId: row.slack_team_id, userId: row.slack_user_id },
    operation: row.operation,
    params: JSON.parse(row.params) as unknown,
    summary: row.summary,
    createdAt: row.created_at,
    expiresAt: row.expires_at,
    decidedAt: row.decided_at,
    decision: row.decision === 'confirmed' || row.decision === 'cancelled' ? row.decision : null,
  };
}

export function createSlackbotProposalRepository(db: SqlClient): SlackbotProposalRepository {
  return {
    async add(proposal) {
      await db.run(
        `INSERT INTO slackbot_proposals
           (id, slack_team_id, slack_user_id, operation, params, summary, created_at, expires_at)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          proposal.id,
          proposal.user.teamId,
          proposal.user.userId,
          proposal.operation,
          JSON.stringify(proposal.params),
          proposal.summary,
          proposal.createdAt,
          proposal.expiresAt,
        ],
      );
    },
    async get(id) {
      const row = await db.get<ProposalRow>('SELECT * FROM slackbot_proposals WHERE id = ?', [id]);
      return row === undefined ? undefined : fromRow(row);
    },
    async decide(id, decision, at) {
      // A cancellation needs no unexpired proposal: cancelling an expired one changes nothing anyway.
      const unexpired = decision === 'confirmed' ? ' AND expires_at > ?' : '';
      const { changes } = await db.run(
        `UPDATE slackbot_proposals SET decided_at = ?, decision = ?
         WHERE id = ? AND decided_at IS NULL${unexpired}`,
        decision === 'confirmed' ? [at, decision, id, at] : [at, decision, id],
      );
      return changes === 1;
    },
    async pruneExpired(before) {
      const { changes } = await db.run('DELETE FROM slackbot_proposals WHERE expires_at < ?', [before]);
      return changes;
    },
  };
}
