import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { openPostgresClient } from '../../src/store/postgres-client.js';
import type { Store } from '../../src/store/store.js';
import type { PollAssignment } from '../../src/store/watch-leases.js';
import { postgres, storeFactories, useFreshStore } from './store-factories.js';
import { MINUTE, newWatch, T0 } from './watch-fixtures.js';

const LEASE = { leaseMs: MINUTE };

const people = (assignment: PollAssignment) =>
  [...new Set(assignment.watches.map((watch) => `${watch.teamId}/${watch.userId}`))].sort();

/** `count` people with `each` active watches apiece, created `parallel` at a time. */
async function addPeople(store: Store, count: number, each = 1, parallel = 50): Promise<void> {
  const inputs = Array.from({ length: count * each }, (_, index) =>
    newWatch({
      userId: `U${String(Math.floor(index / each)).padStart(5, '0')}`,
      machineId: `ps${index}`,
      deadlineAt: T0 + 30 * MINUTE + index,
    }),
  );
  for (let start = 0; start < inputs.length; start += parallel) {
    await Promise.all(inputs.slice(start, start + parallel).map((input) => store.watches.create(input)));
  }
}

describe.each(storeFactories)('poll leases by person on $name', (factory) => {
  const db = useFreshStore(factory);

  it("hands one replica all of a person's active watches, and no finished one", async () => {
    const gpu = await db.store.watches.create(newWatch());
    const cpu = await db.store.watches.create(newWatch({ machineId: 'pscpu', deadlineAt: T0 + MINUTE }));
    const done = await db.store.watches.create(newWatch({ machineId: 'psold' }));
    await db.store.watches.complete(done.id, { status: 'done', at: T0 });

    const assignment = await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE });
    expect(assignment.watches.map((watch) => watch.id)).toEqual([cpu.id, gpu.id]);
    expect(assignment).toMatchObject({ people: 1, totalPeople: 1, replicas: 1 });
    // Each watch says which replica polls it.
    expect(await db.store.watchLeases.holderOf({ teamId: 'T1', userId: 'U_ADA' })).toBe('replica-a');
  });

  it('leaves no watch unpolled past any cap: 6,000 watches of 300 people all reach the one replica', async () => {
    await addPeople(db.store, 300, 20);
    const assignment = await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE });
    expect(assignment.watches).toHaveLength(6000);
    expect(assignment.people).toBe(300);
    // Writing 6,000 watches one by one takes seconds on an idle machine and over a minute on a loaded
    // one (CI runs these store tests twice: on the machine's Node and on Node 24): the timeout bounds
    // a hang, it does not measure speed (the benches do).
  }, 240_000);

  it('never gives one person to two replicas, and splits the people evenly once both have ticked', async () => {
    await addPeople(db.store, 11, 2);
    const other = await db.connect();
    for (let tick = 0; tick < 3; tick++) {
      const now = T0 + tick * 5000;
      const [a, b] = await Promise.all([
        db.store.watchLeases.claimPeople({ owner: 'replica-a', now, ...LEASE }),
        other.watchLeases.claimPeople({ owner: 'replica-b', now, ...LEASE }),
      ]);
      const overlap = people(a).filter((person) => people(b).includes(person));
      expect(overlap).toEqual([]);
      if (tick === 2) {
        expect([a.people, b.people].sort()).toEqual([5, 6]);
        expect(a.watches.length + b.watches.length).toBe(22);
      }
    }
  });

  it('leases linked people without watches too, each to one replica, and drops them when unlinked', async () => {
    const linked = Array.from({ length: 6 }, (_, index) => ({ teamId: 'T1', userId: `U_LINKED${index}` }));
    for (const user of linked) {
      await db.store.vaultEntries.put(user, {
        sealed: { keyId: 'k1', iv: randomBytes(12), authTag: randomBytes(16), ciphertext: randomBytes(48) },
        account: { userId: `u-${user.userId}`, email: `${user.userId}@example.com`, teamId: 'te1' },
        at: T0,
      });
    }
    // One of them also has a watch: still one person, one lease.
    await db.store.watches.create(newWatch({ userId: 'U_LINKED0' }));
    const other = await db.connect();
    let a: PollAssignment | undefined;
    let b: PollAssignment | undefined;
    for (let tick = 0; tick < 3; tick++) {
      const now = T0 + tick * 5000;
      [a, b] = await Promise.all([
        db.store.watchLeases.claimPeople({ owner: 'replica-a', now, ...LEASE }),
        other.watchLeases.claimPeople({ owner: 'replica-b', now, ...LEASE }),
      ]);
      const held = (assignment: PollAssignment) => assignment.held.map((user) => user.userId);
      expect(held(a).filter((user) => held(b as PollAssignment).includes(user))).toEqual([]);
    }
    const all = [...(a?.held ?? []), ...(b?.held ?? [])].map((user) => user.userId).sort();
    expect(all).toEqual(linked.map((user) => user.userId));
    expect(a?.totalPeople).toBe(6);

    for (const user of linked.slice(1)) await db.store.vaultEntries.delete(user);
    const after = await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0 + 15_000, ...LEASE });
    expect(after.totalPeople).toBe(1);
  });

  it('gives a second replica its share within two ticks of the first one holding everybody', async () => {
    await addPeople(db.store, 10);
    const other = await db.connect();
    const first = await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE });
    expect(first.people).toBe(10);
    // B arrives: everybody is held, so it gets nobody yet but is counted from now on.
    expect(
      (await other.watchLeases.claimPeople({ owner: 'replica-b', now: T0 + 5000, ...LEASE })).people,
    ).toBe(0);
    // A sees two replicas and gives half back; B takes them on its next tick.
    expect(
      (await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0 + 5000, ...LEASE })).people,
    ).toBe(5);
    expect(
      (await other.watchLeases.claimPeople({ owner: 'replica-b', now: T0 + 10_000, ...LEASE })).people,
    ).toBe(5);
  });

  it("hands a dead replica's people to the survivor once one lease period has passed, not before", async () => {
    await addPeople(db.store, 4);
    const doomed = await db.connect();
    const survivor = await db.connect();
    expect((await doomed.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE })).people).toBe(4);
    await doomed.close();

    const early = await survivor.watchLeases.claimPeople({
      owner: 'replica-b',
      now: T0 + MINUTE - 1,
      ...LEASE,
    });
    expect(early.people).toBe(0);
    const takenOver = await survivor.watchLeases.claimPeople({
      owner: 'replica-b',
      now: T0 + MINUTE,
      ...LEASE,
    });
    expect(takenOver).toMatchObject({ people: 4, replicas: 1 });
    const holders = await Promise.all(
      (await survivor.watches.listActive()).map((watch) => survivor.watchLeases.holderOf(watch)),
    );
    expect(holders.every((holder) => holder === 'replica-b')).toBe(true);
  });

  it('lets another replica take over at once the people of one that released them', async () => {
    await addPeople(db.store, 3);
    await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE });
    expect(await db.store.watchLeases.release('replica-a')).toBe(3);
    const other = await db.store.watchLeases.claimPeople({ owner: 'replica-b', now: T0 + 1, ...LEASE });
    expect(other).toMatchObject({ people: 3, replicas: 1 });
  });

  it('keeps five replicas claiming at once apart, and together they cover everybody', async () => {
    await addPeople(db.store, 25);
    const replicas = [db.store];
    for (let index = 0; index < 4; index++) replicas.push(await db.connect());
    let rounds: PollAssignment[] = [];
    for (let tick = 0; tick < 3; tick++) {
      rounds = await Promise.all(
        replicas.map((replica, index) =>
          replica.watchLeases.claimPeople({ owner: `replica-${index}`, now: T0 + tick * 5000, ...LEASE }),
        ),
      );
      const all = rounds.flatMap(people);
      expect(new Set(all).size).toBe(all.length);
    }
    expect(rounds.map((round) => round.people)).toEqual([5, 5, 5, 5, 5]);
  });
});

describe('poll leases on PostgreSQL while another replica holds row locks', () => {
  const db = useFreshStore(postgres);

  it('claims the next free people instead of waiting for the ones being claimed', async () => {
    await addPeople(db.store, 4);
    const otherReplica = openPostgresClient(db.url);
    try {
      // The first claim registers the person rows; give them back so that they are free again.
      await db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0, ...LEASE });
      await db.store.watchLeases.release('replica-a');
      await otherReplica.transaction(async (tx) => {
        await tx.all(
          "SELECT * FROM watch_poll_leases WHERE slack_user_id IN ('U00000', 'U00001') FOR UPDATE",
        );
        let timer: NodeJS.Timeout | undefined;
        const waited = new Promise<never>((_, reject) => {
          timer = setTimeout(
            () => reject(new Error('the claim waited for rows another replica locked')),
            2000,
          );
        });
        try {
          const claimed = await Promise.race([
            db.store.watchLeases.claimPeople({ owner: 'replica-a', now: T0 + 1, ...LEASE }),
            waited,
          ]);
          expect(people(claimed)).toEqual(['T1/U00002', 'T1/U00003']);
        } finally {
          clearTimeout(timer);
        }
      });
    } finally {
      await otherReplica.close();
    }
  });
});
