import { describe, expect, it } from 'vitest';
import type { NewDelegation } from '../../src/store/delegations.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 10, 0);
const FOUR_HOURS = 4 * 3_600_000;

const shared = (overrides: Partial<NewDelegation> = {}): NewDelegation => ({
  teamId: 'T1',
  userId: 'U_ADA',
  delegationId: '4711',
  accessTokenId: 'atk_123',
  channel: 'C_ML',
  machineIds: ['psgpu1', 'psgpu2'],
  createdAt: T0,
  expiresAt: T0 + FOUR_HOURS,
  ...overrides,
});

describe.each(storeFactories)('delegations on $name', (factory) => {
  const db = useFreshStore(factory);

  it('records a delegation with its machines, then the channel post it was announced in', async () => {
    const delegation = await db.store.delegations.create(shared());
    expect(delegation).toEqual({
      id: expect.any(String),
      ...shared(),
      messageTs: null,
      expiredNotifiedAt: null,
      grants: null,
      revokedAt: null,
      revokeFailure: null,
    });
    expect(await db.store.delegations.setMessage(delegation.id, '1700000000.000100')).toBe(true);
    expect(await db.store.delegations.get(delegation.id)).toEqual({
      ...delegation,
      messageTs: '1700000000.000100',
    });
    expect(await db.store.delegations.setMessage('unknown', '1.2')).toBe(false);
    expect(await db.store.delegations.get('unknown')).toBeUndefined();
  });

  it('keeps an accessor share until its grants are removed, one replica per attempt, retrying a refusal', async () => {
    const grant = { machineId: 'psgpu1', paperspaceUserId: 'u1sam', slackUserId: 'U_SAM', revoked: false };
    const share = await db.store.delegations.create(
      shared({ delegationId: '', accessTokenId: '', grants: [grant], expiresAt: T0 + 1 }),
    );
    const after = T0 + 2;
    // Its post waits for the removal, and so does the prune.
    expect(await db.store.delegations.dueToExpire(after, 10)).toEqual([]);
    expect((await db.store.delegations.dueToRevoke(after, 10)).map((due) => due.grants)).toEqual([[grant]]);
    expect(await db.store.delegations.claimRevoke(share.id, after, after + 60_000)).toBe(true);
    expect(await db.store.delegations.claimRevoke(share.id, after, after + 60_000)).toBe(false);
    expect(await db.store.delegations.dueToRevoke(after, 10)).toEqual([]);

    await db.store.delegations.recordRevoke(share.id, {
      grants: [grant],
      revokedAt: null,
      failure: 'Paperspace is down',
      retryAt: after + 60_000,
    });
    expect(await db.store.delegations.dueToRevoke(after + 59_999, 10)).toEqual([]);
    expect((await db.store.delegations.dueToRevoke(after + 60_000, 10))[0]?.revokeFailure).toBe(
      'Paperspace is down',
    );
    expect(await db.store.delegations.pruneExpiredBefore(after + FOUR_HOURS, 10)).toBe(0);

    const revoked = { ...grant, revoked: true };
    await db.store.delegations.recordRevoke(share.id, {
      grants: [revoked],
      revokedAt: after + 60_000,
      failure: null,
      retryAt: null,
    });
    expect(await db.store.delegations.dueToRevoke(after + FOUR_HOURS, 10)).toEqual([]);
    expect(await db.store.delegations.get(share.id)).toMatchObject({
      grants: [revoked],
      revokedAt: after + 60_000,
      revokeFailure: null,
    });
    expect((await db.store.delegations.dueToExpire(after, 10)).map((due) => due.id)).toEqual([share.id]);
  });

  it('keeps every grant members claim at once, and adds none once a removal has started or the share is over', async () => {
    const grant = (user: string) => ({
      machineId: 'psgpu1',
      paperspaceUserId: `u1${user}`,
      slackUserId: `U_${user.toUpperCase()}`,
      revoked: false,
    });
    const share = await db.store.delegations.create(
      shared({ delegationId: '', accessTokenId: '', grants: [] }),
    );
    const users = ['sam', 'ada', 'kim', 'lee', 'max'];
    const added = await Promise.all(
      users.map((user) => db.store.delegations.addGrants(share.id, [grant(user)], T0 + 1)),
    );
    expect(added).toEqual(users.map(() => true));
    const grants = (await db.store.delegations.get(share.id))?.grants ?? [];
    expect(grants.map((recorded) => recorded.paperspaceUserId).sort()).toEqual(
      users.map((user) => `u1${user}`).sort(),
    );
    // After its expiry, or once a removal took it (End share), nothing more is added.
    expect(await db.store.delegations.addGrants(share.id, [grant('zed')], T0 + FOUR_HOURS)).toBe(false);
    expect(await db.store.delegations.claimRevoke(share.id, T0 + 2, T0 + 60_000)).toBe(true);
    expect(await db.store.delegations.addGrants(share.id, [grant('zed')], T0 + 2)).toBe(false);
    expect((await db.store.delegations.get(share.id))?.grants).toHaveLength(users.length);
    // A share stored as a resource delegation has no grants to add to.
    const delegation = await db.store.delegations.create(shared({ channel: 'C_OTHER' }));
    expect(await db.store.delegations.addGrants(delegation.id, [grant('sam')], T0 + 1)).toBe(false);
  });

  it('lists running delegations, soonest expiry first, for everyone, one person or one channel', async () => {
    const later = await db.store.delegations.create(shared({ expiresAt: T0 + FOUR_HOURS + 10 }));
    const sooner = await db.store.delegations.create(shared({ userId: 'U_BOB', channel: 'C_OPS' }));
    await db.store.delegations.create(shared({ expiresAt: T0 + 1 }));
    const ids = (list: { id: string }[]) => list.map((delegation) => delegation.id);
    expect(ids(await db.store.delegations.listActive(T0 + 1))).toEqual([sooner.id, later.id]);
    expect(ids(await db.store.delegations.listActive(T0 + 1, { teamId: 'T1', userId: 'U_BOB' }))).toEqual([
      sooner.id,
    ]);
    expect(ids(await db.store.delegations.listActive(T0 + 1, { channel: 'C_ML' }))).toEqual([later.id]);
  });

  it('finds expired delegations whose post is not marked yet, oldest first, limited', async () => {
    const first = await db.store.delegations.create(shared({ expiresAt: T0 + 1 }));
    const second = await db.store.delegations.create(shared({ expiresAt: T0 + 2 }));
    await db.store.delegations.create(shared({ expiresAt: T0 + 3 }));
    await db.store.delegations.create(shared({ expiresAt: T0 + FOUR_HOURS }));
    expect((await db.store.delegations.dueToExpire(T0 + 3, 2)).map((d) => d.id)).toEqual([
      first.id,
      second.id,
    ]);
    await db.store.delegations.markExpired(first.id, T0 + 4);
    expect(await db.store.delegations.dueToExpire(T0 + 3, 10)).toHaveLength(2);
  });

  it('marks a post expired once, even when two replicas try together', async () => {
    const delegation = await db.store.delegations.create(shared({ expiresAt: T0 + 1 }));
    const replica = await db.connect();
    const results = await Promise.all([
      db.store.delegations.markExpired(delegation.id, T0 + 10),
      replica.delegations.markExpired(delegation.id, T0 + 20),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    expect(await db.store.delegations.markExpired(delegation.id, T0 + 30)).toBe(false);
    expect((await db.store.delegations.get(delegation.id))?.expiredNotifiedAt).toBe(
      results[0] ? T0 + 10 : T0 + 20,
    );
    expect(await db.store.delegations.dueToExpire(T0 + 100, 10)).toEqual([]);
  });

  it('ends a running share early once: it leaves the active list and the expiry sweep, and an over share cannot be ended', async () => {
    const running = await db.store.delegations.create(shared({ expiresAt: T0 + 100 }));
    const over = await db.store.delegations.create(shared({ expiresAt: T0 + 5 }));
    expect(await db.store.delegations.endEarly(running.id, T0 + 10)).toBe(true);
    expect(await db.store.delegations.endEarly(running.id, T0 + 11)).toBe(false);
    expect(await db.store.delegations.endEarly(over.id, T0 + 10)).toBe(false);
    expect((await db.store.delegations.listActive(T0 + 10)).map((share) => share.id)).not.toContain(
      running.id,
    );
    expect((await db.store.delegations.dueToExpire(T0 + 1000, 10)).map((share) => share.id)).toEqual([
      over.id,
    ]);
  });

  it('marks each of 30 expired posts once when two replicas sweep them at the same moment', async () => {
    const ids: string[] = [];
    for (let index = 0; index < 30; index++) {
      ids.push((await db.store.delegations.create(shared({ expiresAt: T0 + index }))).id);
    }
    const replica = await db.connect();
    const sweep = (store: typeof replica, at: number) =>
      Promise.all(ids.map((id) => store.delegations.markExpired(id, at)));
    const [here, there] = await Promise.all([sweep(db.store, T0 + 100), sweep(replica, T0 + 200)]);
    expect(ids.filter((_, index) => here[index] === there[index])).toEqual([]);
  });
});
