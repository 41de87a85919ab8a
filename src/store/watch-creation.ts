// Storing a new watch, the one write of the repository with rules of its own: a card has one active
// watch, a newer operation finishes the machine's older ones, and a person's active watches each hold
// a numbered slot below their limit. All of it holds under concurrent requests on every replica, so it
// is done in one transaction, retried when another request got there first.
import { randomUUID } from 'node:crypto';
import { endReceiptIn } from './received-requests.js';
import { type SqlClient, StoreError } from './sql-client.js';
import { fromRow, type WatchRow } from './watch-rows.js';
import type { CreatedWatch, NewWatch, SentOperation, Watch } from './watch-types.js';

/** The person already has `limit` active watches: nothing was stored or finished. */
export class WatchSlotsFullError extends StoreError {
  constructor(readonly active: number) {
    super(`The person already has ${active} active watches.`);
  }
}

/** Why a watch was finished without a result of its own: the newer watch of its card posts instead. */
const REPLACED_ON_CARD = 'replaced by a newer request on the same card';
/**
 * Each attempt fails only because another request committed a watch of the same card (which the next
 * attempt replaces) or took the free slot it picked; each such request is a watch stored, so the
 * attempts are bounded by the limit plus a few clicks on one card.
 */
const MAX_ATTEMPTS = 100;

/**
 * A newer operation decides where the machine is heading: a stop card still waiting for off after a
 * start would otherwise take credit for whatever stop comes next.
 */
export async function supersedeIn(
  client: SqlClient,
  {
    teamId,
    machineId,
    at,
    detail,
    except = '',
  }: { teamId: string; machineId: string; at: number; detail: string; except?: string },
): Promise<Watch[]> {
  const rows = await client.all<WatchRow>(
    `UPDATE watches SET status = 'failed', completed_at = ?, detail = ?
     WHERE slack_team_id = ? AND machine_id = ? AND status = 'active' AND id <> ?
     RETURNING *`,
    [at, detail, teamId, machineId, except],
  );
  return rows.map(fromRow);
}

/**
 * A slot below `limit` that no active watch of the person holds; throws WatchSlotsFullError when there
 * is none. Under a limit it is picked at random among the lowest free ones, so that concurrent requests
 * rarely pick the same one; without one it is the lowest, so that the slots of watches stored without a
 * limit stay below it and count against it.
 */
async function freeSlot(client: SqlClient, person: { teamId: string; userId: string }, limit: number) {
  const held = await client.all<{ slot: number | null }>(
    `SELECT slot FROM watches WHERE status = 'active' AND slack_team_id = ? AND slack_user_id = ?`,
    [person.teamId, person.userId],
  );
  const used = new Set(held.map((row) => row.slot));
  const free: number[] = [];
  const choices = Number.isFinite(limit) ? 8 : 1;
  for (let slot = 0; slot < limit && free.length < choices; slot++) if (!used.has(slot)) free.push(slot);
  if (free.length === 0) throw new WatchSlotsFullError(held.length);
  return free[Math.floor(Math.random() * free.length)] as number;
}

/** WatchRepository.create: see there. */
export async function storeWatch(
  db: SqlClient,
  input: NewWatch,
  limit = Number.POSITIVE_INFINITY,
): Promise<CreatedWatch> {
  const timeline = input.lastState ? [{ state: input.lastState, at: input.createdAt }] : [];
  const messageTs = input.messageTs ?? null;
  // On a conflict with the card's active watch (watches_active_card) or with another active watch of
  // the person in the same slot (watches_active_slot) nothing is inserted and no row comes back.
  const insert = (client: SqlClient, slot: number) =>
    client.get<WatchRow>(
      `INSERT INTO watches (id, slack_team_id, slack_user_id, machine_id, machine_name, target_state, channel,
         message_ts, thread_ts, created_at, deadline_at, last_state, timeline, status, event_id, slot,
         function_execution_id, operation, pending_since)
       VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 'active', ?, ?, ?, ?, ?)
       ON CONFLICT DO NOTHING
       RETURNING *`,
      [
        randomUUID(),
        input.teamId,
        input.userId,
        input.machineId,
        input.machineName,
        input.targetState,
        input.channel,
        messageTs,
        input.threadTs ?? null,
        input.createdAt,
        input.deadlineAt,
        input.lastState ?? null,
        JSON.stringify(timeline),
        input.eventId ?? null,
        slot,
        input.functionExecutionId ?? null,
        input.operation ?? null,
        input.pendingSince ?? null,
      ],
    );
  // Finished before the insert, so the new watch is never among them. An intent not sent yet supersedes
  // nothing: the operation may never happen (markSent supersedes once it has).
  const supersede = (client: SqlClient): Promise<Watch[]> =>
    input.supersedes === undefined || input.pendingSince != null
      ? Promise.resolve([])
      : supersedeIn(client, { ...input, at: input.createdAt, detail: input.supersedes });
  let superseded: Watch[] = [];
  const row = await db.transaction(async (tx) => {
    if (input.receivedId !== undefined) await endReceiptIn(tx, input.receivedId);
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      if (messageTs !== null) {
        await tx.run(
          `UPDATE watches SET status = 'failed', completed_at = ?, detail = ?
           WHERE slack_team_id = ? AND channel = ? AND message_ts = ? AND status = 'active'`,
          [input.createdAt, REPLACED_ON_CARD, input.teamId, input.channel, messageTs],
        );
      }
      // The card's own older watch was finished just above: the card is being redrawn anyway.
      superseded = [...superseded, ...(await supersede(tx))];
      // Read after the updates above, so the watches they finished free their slots. Throwing here
      // rolls them back: a refused watch changes nothing.
      const slot = await freeSlot(tx, input, limit);
      // PostgreSQL: a watch of the card or of this slot that another transaction inserted after
      // this one read the table makes the insert wait for that transaction and then do nothing; the
      // next attempt (statements of its own, so they see that watch) replaces it or picks another slot.
      const inserted = await insert(tx, slot);
      if (inserted !== undefined) return inserted;
    }
    throw new StoreError(`${MAX_ATTEMPTS} attempts to store a watch conflicted with others; gave up.`);
  });
  return { ...fromRow(row), superseded };
}

/**
 * WatchRepository.markSent: see there. The intent's older watches of the machine are superseded now
 * that the operation went out, in the same transaction as the record of it.
 */
export async function markSent(
  db: SqlClient,
  id: string,
  sent: SentOperation,
): Promise<{ recorded: boolean; superseded: Watch[] }> {
  return db.transaction(async (tx) => {
    const row = await tx.get<WatchRow>(
      `UPDATE watches SET pending_since = NULL, last_state = COALESCE(?, last_state),
         timeline = COALESCE(?, timeline), event_id = COALESCE(?, event_id), channel = COALESCE(?, channel),
         message_ts = COALESCE(?, message_ts), thread_ts = COALESCE(?, thread_ts)
       WHERE id = ? AND status = 'active'
       RETURNING *`,
      [
        sent.lastState ?? null,
        // The timeline starts where the call left the machine, as it did when watches were stored after it.
        sent.lastState === undefined ? null : JSON.stringify([{ state: sent.lastState, at: sent.at }]),
        sent.eventId ?? null,
        sent.channel ?? null,
        sent.messageTs ?? null,
        sent.threadTs ?? null,
        id,
      ],
    );
    if (row === undefined) return { recorded: false, superseded: [] };
    const watch = fromRow(row);
    const superseded =
      sent.supersedes === undefined
        ? []
        : await supersedeIn(tx, { ...watch, at: sent.at, detail: sent.supersedes, except: id });
    return { recorded: true, superseded };
  });
}
