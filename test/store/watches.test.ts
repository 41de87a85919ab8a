import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import type { Store } from '../../src/store/store.js';
import { ACTIVE_IDS_PER_QUERY } from '../../src/store/watches.js';
import { storeFactories, useFreshStore } from './store-factories.js';
import { MINUTE, newWatch, T0 } from './watch-fixtures.js';

const RACER = fileURLToPath(new URL('./fixtures/race-to-complete.ts', import.meta.url));

/** Starts a replica process; resolves once it has opened the store and waits for its start time. */
async function startRacer(url: string, name: string) {
  const child = spawn(process.execPath, ['--import', 'tsx', RACER, url, name], {
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const next = async () => {
    const line = await lines.next();
    if (line.done) throw new Error(`${name} exited early`);
    return line.value;
  };
  expect(await next()).toBe('ready');
  return { child, result: async () => JSON.parse(await next()) as string[] };
}

const exited = (child: ChildProcess) =>
  child.exitCode === null && child.signalCode === null ? once(child, 'exit') : Promise.resolve();

describe.each(storeFactories)('watches on $name', (factory) => {
  const db = useFreshStore(factory);

  it('creates an active watch with an empty lease and a timeline starting at the known state', async () => {
    const { superseded, ...watch } = await db.store.watches.create(
      newWatch({ lastState: 'off', messageTs: '111.1', threadTs: '111.1', eventId: 'ev-start-1' }),
    );
    expect(superseded).toEqual([]);
    expect(watch).toEqual({
      id: expect.any(String),
      ...newWatch(),
      messageTs: '111.1',
      threadTs: '111.1',
      lastState: 'off',
      eventId: 'ev-start-1',
      functionExecutionId: null,
      operation: null,
      pendingSince: null,
      timeline: [{ state: 'off', at: T0 }],
      status: 'active',
      detail: null,
      completedAt: null,
    });
    expect(await db.store.watches.get(watch.id)).toEqual(watch);
    expect(await db.store.watches.get('no-such-watch')).toBeUndefined();
  });

  it('lists active watches, oldest first, for everyone or for one person or machine', async () => {
    const first = await db.store.watches.create(newWatch());
    const second = await db.store.watches.create(
      newWatch({ userId: 'U_BOB', machineId: 'pscpu', createdAt: T0 + 1 }),
    );
    const finished = await db.store.watches.create(newWatch({ createdAt: T0 + 2 }));
    await db.store.watches.complete(finished.id, { status: 'done', at: T0 + 3 });
    const ids = (watches: { id: string }[]) => watches.map((watch) => watch.id);
    expect(ids(await db.store.watches.listActive())).toEqual([first.id, second.id]);
    expect(ids(await db.store.watches.listActive({ teamId: 'T1', userId: 'U_BOB' }))).toEqual([second.id]);
    expect(ids(await db.store.watches.listActive({ machineId: 'psgpu1' }))).toEqual([first.id]);
  });

  it('reads the active watches among a batch of ids in one query, and refuses a batch past its bound', async () => {
    const active = await db.store.watches.create(newWatch());
    const finished = await db.store.watches.create(newWatch({ machineId: 'pscpu', createdAt: T0 + 1 }));
    await db.store.watches.complete(finished.id, { status: 'done', at: T0 + 2 });
    const unknown = Array.from(
      { length: ACTIVE_IDS_PER_QUERY - 2 },
      (_, index) => `00000000-0000-4000-8000-${String(index).padStart(12, '0')}`,
    );
    const read = await db.store.watches.listActiveByIds([
      ...unknown.slice(0, 200),
      active.id,
      finished.id,
      ...unknown.slice(200),
    ]);
    expect(read.map((watch) => watch.id)).toEqual([active.id]);
    expect(read[0]).toEqual(await db.store.watches.get(active.id));
    expect(await db.store.watches.listActiveByIds([])).toEqual([]);
    await expect(db.store.watches.listActiveByIds([...unknown, 'a', 'b', 'c'])).rejects.toThrow(
      `at most ${ACTIVE_IDS_PER_QUERY} ids`,
    );
  });

  it('records progress while active and refuses it after completion', async () => {
    const watch = await db.store.watches.create(newWatch({ lastState: 'off' }));
    const timeline = [
      { state: 'off', at: T0 },
      { state: 'starting', at: T0 + 5000 },
    ];
    expect(
      await db.store.watches.updateProgress(watch.id, { lastState: 'starting', timeline, messageTs: '9.9' }),
    ).toBe(true);
    expect(await db.store.watches.get(watch.id)).toMatchObject({
      lastState: 'starting',
      timeline,
      messageTs: '9.9',
    });

    expect(await db.store.watches.updateProgress(watch.id, { threadTs: '9.9' })).toBe(true);
    expect(await db.store.watches.get(watch.id)).toMatchObject({
      lastState: 'starting',
      timeline,
      threadTs: '9.9',
    });

    await db.store.watches.complete(watch.id, { status: 'done', at: T0 + 6000 });
    expect(await db.store.watches.updateProgress(watch.id, { lastState: 'ready' })).toBe(false);
    expect((await db.store.watches.get(watch.id))?.lastState).toBe('starting');
  });

  it('completes once: a second completion reports false and changes nothing', async () => {
    const watch = await db.store.watches.create(newWatch());
    const timeline = [{ state: 'ready', at: T0 + 134_000 }];
    expect(
      await db.store.watches.complete(watch.id, {
        status: 'done',
        at: T0 + 134_000,
        lastState: 'ready',
        timeline,
      }),
    ).toBe(true);
    expect(await db.store.watches.complete(watch.id, { status: 'timed_out', at: T0 + 999_999 })).toBe(false);
    expect(await db.store.watches.get(watch.id)).toMatchObject({
      status: 'done',
      completedAt: T0 + 134_000,
      lastState: 'ready',
      timeline,
    });
  });

  it('keeps the report of a completion due from its retry time until it is reported', async () => {
    const watch = await db.store.watches.create(newWatch());
    const report = { body: '{"outcome":{"status":"gone"}}', retryAt: T0 + 2 * MINUTE };
    expect(await db.store.watches.complete(watch.id, { status: 'gone', at: T0, report })).toBe(true);
    expect(await db.store.watches.dueReports(T0 + 2 * MINUTE - 1, 10)).toEqual([]);
    const [due] = await db.store.watches.dueReports(T0 + 2 * MINUTE, 10);
    expect(due).toMatchObject({
      body: report.body,
      dueAt: report.retryAt,
      watch: { id: watch.id, status: 'gone' },
    });

    // Not deleted with the finished watches while its report is still due.
    expect(await db.store.watches.purgeFinished(T0 + 60 * MINUTE)).toBe(0);
    await db.store.watches.reported(watch.id);
    expect(await db.store.watches.dueReports(T0 + 60 * MINUTE, 10)).toEqual([]);
    expect(await db.store.watches.purgeFinished(T0 + 60 * MINUTE)).toBe(1);
  });

  it('hands a due report to exactly one of two replicas, and moves its next try', async () => {
    const watch = await db.store.watches.create(newWatch());
    await db.store.watches.complete(watch.id, {
      status: 'done',
      at: T0,
      report: { body: '{}', retryAt: T0 },
    });
    const replica = await db.connect();
    const claims = await Promise.all([
      db.store.watches.claimReport(watch.id, T0, T0 + 2 * MINUTE),
      replica.watches.claimReport(watch.id, T0, T0 + 2 * MINUTE),
    ]);
    expect(claims.filter(Boolean)).toHaveLength(1);
    expect(await db.store.watches.dueReports(T0 + 2 * MINUTE - 1, 10)).toEqual([]);
    expect(await db.store.watches.dueReports(T0 + 2 * MINUTE, 10)).toHaveLength(1);
    // Reported meanwhile: a claim made with what was read before fails.
    await db.store.watches.reported(watch.id);
    expect(await replica.watches.claimReport(watch.id, T0 + 2 * MINUTE, T0 + 4 * MINUTE)).toBe(false);
  });

  it('lets exactly one of two replicas complete a watch they both saw finish', async () => {
    const watch = await db.store.watches.create(newWatch());
    const replica = await db.connect();
    const results = await Promise.all([
      db.store.watches.complete(watch.id, { status: 'done', at: T0 + 1 }),
      replica.watches.complete(watch.id, { status: 'failed', at: T0 + 2, detail: 'start event errored' }),
      db.store.watches.complete(watch.id, { status: 'gone', at: T0 + 3 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const winner = ['done', 'failed', 'gone'][results.indexOf(true)];
    expect((await replica.watches.get(watch.id))?.status).toBe(winner);
  });

  it('completes each watch once when four processes race to complete all of them', async () => {
    const created = [];
    for (let index = 0; index < 300; index++) created.push(await db.store.watches.create(newWatch()));
    const racers = await Promise.all(['a', 'b', 'c', 'd'].map((name) => startRacer(db.url, name)));
    try {
      const startAt = Date.now() + 200;
      for (const racer of racers) racer.child.stdin?.write(`${startAt}\n`);
      const results = await Promise.all(racers.map((racer) => racer.result()));
      const won = results.flat();
      expect(won.sort()).toEqual(created.map((watch) => watch.id).sort());
    } finally {
      for (const racer of racers) racer.child.kill();
      await Promise.all(racers.map((racer) => exited(racer.child)));
    }
    expect(await db.store.watches.listActive()).toEqual([]);
  });

  it('keeps the reason a watch failed', async () => {
    const watch = await db.store.watches.create(newWatch());
    await db.store.watches.complete(watch.id, { status: 'failed', at: T0, detail: 'Out of capacity in NY2' });
    expect((await db.store.watches.get(watch.id))?.detail).toBe('Out of capacity in NY2');
  });

  it('keeps one active watch per card: a newer watch of it finishes the older one as replaced', async () => {
    const card = { channel: 'C1', messageTs: '111.1' };
    const older = await db.store.watches.create(newWatch(card));
    const otherCard = await db.store.watches.create(newWatch({ ...card, messageTs: '222.2' }));
    const noCard = await db.store.watches.create(newWatch());
    const newer = await db.store.watches.create(newWatch({ ...card, createdAt: T0 + MINUTE }));

    expect(await db.store.watches.get(older.id)).toMatchObject({
      status: 'failed',
      completedAt: T0 + MINUTE,
      detail: 'replaced by a newer request on the same card',
    });
    const active = await db.store.watches.listActive();
    expect(active.map((watch) => watch.id).sort()).toEqual([otherCard.id, noCard.id, newer.id].sort());
  });

  it('finishes the older watches of a machine when an operation supersedes them, and answers them', async () => {
    const stopCard = await db.store.watches.create(newWatch({ targetState: 'off', messageTs: '111.1' }));
    const someoneElses = await db.store.watches.create(newWatch({ userId: 'U_BOB', messageTs: '222.2' }));
    const otherMachine = await db.store.watches.create(newWatch({ machineId: 'psgpu2', messageTs: '333.3' }));
    const otherWorkspace = await db.store.watches.create(newWatch({ teamId: 'T2', messageTs: '444.4' }));
    // A wait supersedes nothing: it only looks.
    const wait = await db.store.watches.create(newWatch({ messageTs: '555.5' }));
    expect(wait.superseded).toEqual([]);

    const start = await db.store.watches.create(
      newWatch({ messageTs: '666.6', createdAt: T0 + MINUTE, supersedes: 'superseded by a newer start' }),
    );
    expect(start.superseded.map((watch) => watch.id).sort()).toEqual(
      [stopCard.id, someoneElses.id, wait.id].sort(),
    );
    expect(await db.store.watches.get(stopCard.id)).toMatchObject({
      status: 'failed',
      completedAt: T0 + MINUTE,
      detail: 'superseded by a newer start',
    });
    const active = await db.store.watches.listActive();
    expect(active.map((watch) => watch.id).sort()).toEqual(
      [otherMachine.id, otherWorkspace.id, start.id].sort(),
    );

    const noWait = await db.store.watches.supersede({
      teamId: 'T1',
      machineId: 'psgpu1',
      at: T0 + 2 * MINUTE,
      detail: 'superseded by a newer stop',
    });
    expect(noWait.map((watch) => watch.id)).toEqual([start.id]);
    expect(await db.store.watches.listActive({ machineId: 'psgpu1' })).toEqual([
      expect.objectContaining({ teamId: 'T2' }),
    ]);
  });

  it('leaves exactly one active watch per card when five requests about each of 10 cards arrive at once', async () => {
    // On PostgreSQL each request comes through its own connection, as from five replicas. SQLite is one
    // process's database: its requests share that process's connection.
    const replicas = [db.store];
    if (factory.dialect === 'postgres')
      for (let index = 0; index < 4; index++) replicas.push(await db.connect());
    const requests = Array.from({ length: 5 }, (_, index) => replicas[index % replicas.length] as Store);
    const cards = Array.from({ length: 10 }, (_, index) => `300.${index}`);
    const created = await Promise.all(
      cards.flatMap((messageTs) =>
        requests.map((replica) => replica.watches.create(newWatch({ channel: 'C1', messageTs }))),
      ),
    );
    expect(created).toHaveLength(50);

    const active = await db.store.watches.listActive();
    expect(active.map((watch) => watch.messageTs).sort()).toEqual(cards);
    for (const watch of created) {
      const stored = await db.store.watches.get(watch.id);
      if (stored?.status !== 'active')
        expect(stored?.detail).toBe('replaced by a newer request on the same card');
    }
  });

  it('lets two replicas completing the same 100 watches at once finish each exactly once', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 100; index++) ids.push((await db.store.watches.create(newWatch())).id);
    const replica = await db.connect();
    const completeAll = (store: typeof replica, detail: string) =>
      Promise.all(ids.map((id) => store.watches.complete(id, { status: 'done', at: T0, detail })));
    const [here, there] = await Promise.all([completeAll(db.store, 'here'), completeAll(replica, 'there')]);
    for (const [index, id] of ids.entries()) {
      expect(here[index] !== there[index]).toBe(true);
      expect((await db.store.watches.get(id))?.detail).toBe(here[index] ? 'here' : 'there');
    }
  });

  it('finishes, marks sending and reports a burst of 300 completions at once, each with its own values', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 300; index++) ids.push((await db.store.watches.create(newWatch())).id);
    const completion = (index: number) => ({
      status: index % 3 === 0 ? ('failed' as const) : ('done' as const),
      at: T0 + index,
      detail: `detail ${index}`,
      ...(index % 2 === 0 ? { lastState: 'ready' } : {}),
      report: { body: `{"n":${index}}`, retryAt: T0 + index },
    });
    const [won, again] = await Promise.all([
      Promise.all(ids.map((id, index) => db.store.watches.complete(id, completion(index)))),
      // Asked in the same burst: the watch is finished once, by the first call.
      db.store.watches.complete(ids[0] as string, { status: 'gone', at: T0 }),
    ]);
    expect(won.every(Boolean)).toBe(true);
    expect(again).toBe(false);
    for (const [index, id] of ids.entries()) {
      expect(await db.store.watches.get(id)).toMatchObject({
        status: completion(index).status,
        completedAt: T0 + index,
        detail: `detail ${index}`,
        lastState: index % 2 === 0 ? 'ready' : null,
      });
    }

    await Promise.all(ids.map((id, index) => db.store.watches.reportSending(id, T0 + 1000 + index)));
    const due = await db.store.watches.dueReports(T0 + 1000, 1000);
    expect(due.map(({ watch, body, sentAt }) => [watch.id, body, sentAt])).toEqual(
      ids.map((id, index) => [id, `{"n":${index}}`, T0 + 1000 + index]),
    );

    // Half reported, half refused everywhere (nothing sent) at once: each keeps what its own call said.
    await Promise.all(
      ids.map((id, index) =>
        index % 2 === 0 ? db.store.watches.reported(id) : db.store.watches.reportSending(id, null),
      ),
    );
    const left = await db.store.watches.dueReports(T0 + 1000, 1000);
    expect(left.map(({ watch, sentAt }) => [watch.id, sentAt])).toEqual(
      ids.flatMap((id, index) => (index % 2 === 0 ? [] : [[id, null]])),
    );
  });

  it('counts the active watches without loading them', async () => {
    const finished = await db.store.watches.create(newWatch());
    await db.store.watches.create(newWatch({ userId: 'U_BOB' }));
    await db.store.watches.create(newWatch({ machineId: 'pscpu' }));
    await db.store.watches.complete(finished.id, { status: 'done', at: T0 });
    expect(await db.store.watches.countActive()).toBe(2);
  });

  it('purges watches that finished before a time and keeps active and recent ones', async () => {
    const old = await db.store.watches.create(newWatch());
    const recent = await db.store.watches.create(newWatch());
    const active = await db.store.watches.create(newWatch());
    await db.store.watches.complete(old.id, { status: 'done', at: T0 });
    await db.store.watches.complete(recent.id, { status: 'done', at: T0 + 10 * MINUTE });
    expect(await db.store.watches.purgeFinished(T0 + MINUTE)).toBe(1);
    expect(await db.store.watches.get(old.id)).toBeUndefined();
    expect(await db.store.watches.get(recent.id)).toBeDefined();
    expect(await db.store.watches.get(active.id)).toBeDefined();
  });
});
