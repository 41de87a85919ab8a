// The per-person limit on active watches is enforced by the database: requests of one person racing on
// two replicas (two connections) cannot get past it, on SQLite and on PostgreSQL.
import { describe, expect, it } from 'vitest';
import {
  createMachineWatcher,
  MAX_ACTIVE_WATCHES_PER_PERSON,
  WatchLimitError,
} from '../../../src/features/machines/machine-watcher.js';
import { storeFactories, useFreshStore } from '../../store/store-factories.js';

const T0 = Date.UTC(2026, 10, 24, 9, 0);
const ADA = { teamId: 'T0ACME', userId: 'U0ADA' };
const SAM = { teamId: 'T0ACME', userId: 'U0SAM' };

describe.each(storeFactories)('the watch limit under concurrent requests on $name', (factory) => {
  const db = useFreshStore(factory);

  it('80 concurrent watches of one person leave exactly the limit active; the rest are refused', async () => {
    // Two connections on PostgreSQL, as two replicas. better-sqlite3 is synchronous, so two connections
    // in one process would block each other's thread; SQLite replicas are processes, serialised by BEGIN
    // IMMEDIATE, and one connection with concurrent transactions is the same interleaving of requests.
    const second = factory.dialect === 'postgres' ? await db.connect() : db.store;
    const replicas = [db.store, second].map((store) => createMachineWatcher({ store, now: () => T0 }));
    const requests = Array.from({ length: 80 }, (_, index) =>
      replicas[index % 2]?.watch({
        user: ADA,
        machineId: `psrace${String(index).padStart(3, '0')}`,
        machineName: `race-${index}`,
        targetState: 'ready',
        channel: 'C0OPS',
      }),
    );
    const results = await Promise.allSettled(requests);

    const refused = results.flatMap((result) => (result.status === 'rejected' ? [result.reason] : []));
    expect(refused).toHaveLength(80 - MAX_ACTIVE_WATCHES_PER_PERSON);
    for (const reason of refused) {
      expect(reason).toBeInstanceOf(WatchLimitError);
      expect((reason as WatchLimitError).message).toContain(
        `already watching ${MAX_ACTIVE_WATCHES_PER_PERSON}`,
      );
    }
    expect(await db.store.watches.countActive(ADA)).toBe(MAX_ACTIVE_WATCHES_PER_PERSON);
    // Another person is not held by Ada's limit.
    await replicas[0]?.watch({
      user: SAM,
      machineId: 'pssam',
      machineName: 'sam-1',
      targetState: 'off',
      channel: 'C0OPS',
    });
    expect(await db.store.watches.countActive(SAM)).toBe(1);
  });

  it('a finished watch frees its slot for the next request', async () => {
    const watcher = createMachineWatcher({ store: db.store, now: () => T0 });
    const watches = [];
    for (let index = 0; index < MAX_ACTIVE_WATCHES_PER_PERSON; index++) {
      watches.push(
        await watcher.watch({
          user: ADA,
          machineId: `psfull${index}`,
          machineName: `full-${index}`,
          targetState: 'off',
          channel: 'C0OPS',
        }),
      );
    }
    const next = {
      user: ADA,
      machineId: 'psnext',
      machineName: 'next',
      targetState: 'off',
      channel: 'C0OPS',
    };
    await expect(watcher.watch(next)).rejects.toBeInstanceOf(WatchLimitError);
    expect(await db.store.watches.complete(watches[7]?.id ?? '', { status: 'done', at: T0 + 1 })).toBe(true);
    await expect(watcher.watch(next)).resolves.toMatchObject({ machineId: 'psnext', status: 'active' });
    expect(await db.store.watches.countActive(ADA)).toBe(MAX_ACTIVE_WATCHES_PER_PERSON);
  });
});
