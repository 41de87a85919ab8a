import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import type { RowMessageDrawing } from '../../src/store/row-messages.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 9, 0);
const REF = { teamId: 'T1', channel: 'D0ADA', ts: '1736154000.000100' };
const row = (id: string, text: string): KnownBlock => ({
  type: 'section',
  block_id: id,
  text: { type: 'mrkdwn', text },
});
/** A reminder of twenty rows, each with its buttons still on. */
const POSTED: RowMessageDrawing = {
  blocks: Array.from({ length: 20 }, (_, i) => row(`row:${i}`, `machine ${i}: running`)),
  text: '20 machines still running',
};
const answered = (i: number) => (message: RowMessageDrawing) => ({
  blocks: message.blocks.map((block) =>
    block.block_id === `row:${i}` ? row(`row:${i}`, `machine ${i}: stopped`) : block,
  ),
  text: message.text,
});

describe.each(storeFactories)('kept drawings of messages with rows on $name', (factory) => {
  const db = useFreshStore(factory);

  it('keeps every row of twenty redrawn at once, the first from the click’s copy', async () => {
    // Two connections on PostgreSQL, as two replicas. SQLite serves one process through one connection
    // (its transactions queue there); a second in the same process would wait on the first's lock
    // synchronously, holding up the event loop the first needs to finish.
    const other = factory.name === 'PostgreSQL' ? await db.connect() : db.store;
    const drawn = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        (i % 2 === 0 ? db.store : other).rowMessages.redraw(
          REF,
          { kind: 'reminder', current: POSTED },
          answered(i),
          T0,
        ),
      ),
    );
    expect(drawn.map((message) => message?.version).sort((a, b) => (a ?? 0) - (b ?? 0))).toEqual(
      Array.from({ length: 20 }, (_, i) => i + 1),
    );
    const kept = await db.store.rowMessages.find(REF);
    expect(kept?.kind).toBe('reminder');
    expect(kept?.version).toBe(20);
    expect(JSON.stringify(kept?.blocks)).not.toContain('running');
  });

  it('redraws nothing it does not keep without a first copy, and keeps nothing a redraw leaves alone', async () => {
    expect(await db.store.rowMessages.redraw(REF, undefined, answered(1), T0)).toBeUndefined();
    expect(await db.store.rowMessages.find(REF)).toBeUndefined();
    await db.store.rowMessages.redraw(REF, { kind: 'digest', current: POSTED }, () => undefined, T0);
    expect((await db.store.rowMessages.find(REF))?.version).toBe(0);
  });

  it('prunes the copies last redrawn before the given time', async () => {
    await db.store.rowMessages.redraw(REF, { kind: 'digest', current: POSTED }, answered(0), T0);
    const later = { ...REF, ts: '1736154999.000100' };
    await db.store.rowMessages.redraw(later, { kind: 'digest', current: POSTED }, answered(0), T0 + 10);
    expect(await db.store.rowMessages.pruneBefore(T0 + 5, 100)).toBe(1);
    expect(await db.store.rowMessages.find(REF)).toBeUndefined();
    expect(await db.store.rowMessages.find(later)).toBeDefined();
  });
});
