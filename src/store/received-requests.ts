// The receipt of a change a person asked for in Slack, kept from before the ack until the request
// reaches its intent (the watch stored before the call to Paperspace) or ends with an answer. Slack
// shows the person their command was taken once it is acked; a replica that dies after that and
// before the intent leaves only this row, from which another replica tells them, naming the machine,
// that nothing was done (features/watches/receipt-recovery.ts). Taken for telling once across replicas
// as intents are (claim moves pending_since), and a request still alive after that sends nothing
// (endIn refuses): the person is never told "not done" of something done.
import { type SqlClient, StoreError } from './sql-client.js';

export interface NewReceivedRequest {
  /** Chosen by the caller, so the request knows its receipt before the insert has answered. */
  id: string;
  teamId: string;
  userId: string;
  /** Where the person asked (null: nowhere the bot may answer them but their DM). */
  channel: string | null;
  /** What was asked, in words: `start`, `stop`, `restart`. */
  operation: string;
  /** What it was asked of, as the person typed it (a machine's name or id). */
  subject: string;
  receivedAt: number;
}

export interface ReceivedRequest extends NewReceivedRequest {
  /** receivedAt until a replica takes the receipt to tell the person; then when it took it. */
  pendingSince: number;
  /** When a replica first took it to tell the person; null while the request may still go on. */
  claimedAt: number | null;
}

/** The receipt was taken by the recovery meanwhile: the person is being told nothing was done. */
export class ReceiptTakenError extends StoreError {
  constructor() {
    super('The request was already answered as not done.');
  }
}

export interface ReceivedRequestRepository {
  receive(request: NewReceivedRequest): Promise<void>;
  /**
   * Removes the receipt of a request that is about to be sent, or ended with an answer of its own.
   * Throws ReceiptTakenError when the recovery took it (it tells the person; nothing may be sent).
   */
  end(id: string): Promise<void>;
  /** Receipts left pending since `before` or earlier, oldest first. */
  pending(before: number, limit: number): Promise<ReceivedRequest[]>;
  /**
   * Takes a receipt to tell its person, until the next grace passes (pendingSince becomes `now`). True
   * for exactly one caller: false if another replica took it, or the request ended, meanwhile.
   */
  claim(id: string, pendingSince: number, now: number): Promise<boolean>;
  /** Forgets a receipt whose person was told. */
  forget(id: string): Promise<void>;
}

type ReceivedRequestRow = {
  id: string;
  slack_team_id: string;
  slack_user_id: string;
  channel: string | null;
  operation: string;
  subject: string;
  received_at: number | string;
  pending_since: number | string;
  claimed_at: number | string | null;
};

function fromRow(row: ReceivedRequestRow): ReceivedRequest {
  return {
    id: row.id,
    teamId: row.slack_team_id,
    userId: row.slack_user_id,
    channel: row.channel,
    operation: row.operation,
    subject: row.subject,
    receivedAt: Number(row.received_at),
    pendingSince: Number(row.pending_since),
    claimedAt: row.claimed_at === null ? null : Number(row.claimed_at),
  };
}

/**
 * Ends the receipt `id` on `client` (a transaction's, so the intent is stored in the same step), unless
 * the recovery took it. Throws ReceiptTakenError when it did: the caller must not send the request.
 */
export async function endReceiptIn(client: SqlClient, id: string): Promise<void> {
  const { changes } = await client.run('DELETE FROM received_requests WHERE id = ? AND claimed_at IS NULL', [
    id,
  ]);
  if (changes === 1) return;
  const taken = await client.get('SELECT id FROM received_requests WHERE id = ?', [id]);
  if (taken !== undefined) throw new ReceiptTakenError();
}

export function createReceivedRequestRepository(db: SqlClient): ReceivedRequestRepository {
  return {
    async receive(request) {
      await db.run(
        `INSERT INTO received_requests (id, slack_team_id, slack_user_id, channel, operation, subject,
           received_at, pending_since)
         VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
        [
          request.id,
          request.teamId,
          request.userId,
          request.channel,
          request.operation,
          request.subject,
          request.receivedAt,
          request.receivedAt,
        ],
      );
    },

    end: (id) => endReceiptIn(db, id),

    async pending(before, limit) {
      const rows = await db.all<ReceivedRequestRow>(
        'SELECT * FROM received_requests WHERE pending_since <= ? ORDER BY pending_since, id LIMIT ?',
        [before, limit],
      );
      return rows.map(fromRow);
    },

    async claim(id, pendingSince, now) {
      const { changes } = await db.run(
        `UPDATE received_requests SET pending_since = ?, claimed_at = COALESCE(claimed_at, ?)
         WHERE id = ? AND pending_since = ?`,
        [now, now, id, pendingSince],
      );
      return changes === 1;
    },

    async forget(id) {
      await db.run('DELETE FROM received_requests WHERE id = ?', [id]);
    },
  };
}
