// The last drawing of a message that lists machines in rows (a reminder, a forgotten-machine alert, a
// team digest), kept from the first click on one of its rows. chat.update replaces a message's every
// block and the bot cannot read a message back from Slack, so whatever redraws one row later (the watch
// a Stop started, once the machine is off) starts from this copy, and every click redraws it here too.
// A redraw is one transaction on the row (locked on PostgreSQL), so two rows finishing at once both
// stay; `version` counts the redraws, so a writer whose chat.update went out late can tell it sent an
// older drawing than the newest and send that one after it.
import type { KnownBlock } from '@slack/types';
import { z } from 'zod';
import type { SqlClient } from './sql-client.js';

/** A message in a conversation of a workspace; `ts` is Slack's id of the message. */
export interface RowMessageRef {
  teamId: string;
  channel: string;
  ts: string;
}

export interface RowMessageDrawing {
  blocks: KnownBlock[];
  text: string;
}

export interface StoredRowMessage extends RowMessageDrawing {
  /** Which feature drew it, and so knows how to redraw one of its rows ('reminder', 'digest'...). */
  kind: string;
  version: number;
}

export interface RowMessageRepository {
  /**
   * Redraws the kept copy of the message with `redraw` (starting from `current`, the message as the
   * click showed it, when none is kept yet) and keeps the result. Undefined, with nothing kept, when
   * `redraw` finds nothing to change.
   */
  redraw(
    ref: RowMessageRef,
    start: { kind: string; current: RowMessageDrawing } | undefined,
    redraw: (message: StoredRowMessage) => RowMessageDrawing | undefined,
    at: number,
  ): Promise<StoredRowMessage | undefined>;
  find(ref: RowMessageRef): Promise<StoredRowMessage | undefined>;
  /**
   * Keeps the drawing of a message just posted, for a message whose rows something other than a click
   * on it may redraw (a forgotten-machine alert whose machine was stopped elsewhere). A copy kept
   * already stays.
   */
  keep(ref: RowMessageRef, kind: string, drawing: RowMessageDrawing, at: number): Promise<void>;
  /** Deletes up to `limit` copies last redrawn before `before`; how many went. */
  pruneBefore(before: number, limit: number): Promise<number>;
}

type Row = { kind: string; blocks: string; text: string; version: number | string };

// Stored by this code only: parsed as blocks Slack already took, not checked field by field.
const blocksSchema = z.array(z.custom<KnownBlock>((block) => typeof block === 'object' && block !== null));

const fromRow = (row: Row): StoredRowMessage => ({
  kind: row.kind,
  blocks: blocksSchema.parse(JSON.parse(row.blocks)),
  text: row.text,
  version: Number(row.version),
});

const KEY = 'slack_team_id = ? AND channel = ? AND ts = ?';
const keyOf = (ref: RowMessageRef) => [ref.teamId, ref.channel, ref.ts];

export function createRowMessageRepository(db: SqlClient): RowMessageRepository {
  return {
    redraw: (ref, start, redraw, at) =>
      db.transaction(async (tx) => {
        if (start !== undefined) {
          // Two first clicks at once both insert; the second finds the first's copy and redraws it.
          await tx.run(
            `INSERT INTO row_messages (slack_team_id, channel, ts, kind, blocks, text, version, updated_at)
             VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (slack_team_id, channel, ts) DO NOTHING`,
            [...keyOf(ref), start.kind, JSON.stringify(start.current.blocks), start.current.text, at],
          );
        }
        const lock = tx.dialect === 'postgres' ? ' FOR UPDATE' : '';
        const row = await tx.get<Row>(
          `SELECT kind, blocks, text, version FROM row_messages WHERE ${KEY}${lock}`,
          keyOf(ref),
        );
        if (row === undefined) return undefined;
        const kept = fromRow(row);
        const next = redraw(kept);
        if (next === undefined) return undefined;
        const version = kept.version + 1;
        await tx.run(
          `UPDATE row_messages SET blocks = ?, text = ?, version = ?, updated_at = ? WHERE ${KEY}`,
          [JSON.stringify(next.blocks), next.text, version, at, ...keyOf(ref)],
        );
        return { ...next, kind: kept.kind, version };
      }),

    async find(ref) {
      const row = await db.get<Row>(
        `SELECT kind, blocks, text, version FROM row_messages WHERE ${KEY}`,
        keyOf(ref),
      );
      return row && fromRow(row);
    },

    async keep(ref, kind, drawing, at) {
      await db.run(
        `INSERT INTO row_messages (slack_team_id, channel, ts, kind, blocks, text, version, updated_at)
         VALUES (?, ?, ?, ?, ?, ?, 0, ?) ON CONFLICT (slack_team_id, channel, ts) DO NOTHING`,
        [...keyOf(ref), kind, JSON.stringify(drawing.blocks), drawing.text, at],
      );
    },

    async pruneBefore(before, limit) {
      const { changes } = await db.run(
        `DELETE FROM row_messages WHERE (slack_team_id, channel, ts) IN
           (SELECT slack_team_id, channel, ts FROM row_messages WHERE updated_at < ? LIMIT ?)`,
        [before, limit],
      );
      return changes;
    },
  };
}
