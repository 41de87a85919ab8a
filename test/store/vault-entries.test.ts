import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { SealedCredentials } from '../../src/store/sealed-rows.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const BOB = { teamId: 'T1', userId: 'U_BOB' };
const ACCOUNT = { userId: 'u1a2b3', email: 'ada@example.com', teamId: 'te9f8' };

const sealed = (keyId = 'k1'): SealedCredentials => ({
  keyId,
  iv: randomBytes(12),
  authTag: randomBytes(16),
  ciphertext: randomBytes(48),
});

describe.each(storeFactories)('vault entries on $name', (factory) => {
  const db = useFreshStore(factory);

  it('stores and returns an entry byte for byte, with the account in the clear', async () => {
    const credentials = sealed();
    await db.store.vaultEntries.put(ADA, { sealed: credentials, account: ACCOUNT, at: 100 });
    expect(await db.store.vaultEntries.get(ADA)).toEqual({
      ...ADA,
      sealed: credentials,
      account: ACCOUNT,
      createdAt: 100,
      updatedAt: 100,
    });
  });

  it('has nothing for a user who never linked, even one with the same id in another team', async () => {
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: ACCOUNT, at: 1 });
    expect(await db.store.vaultEntries.get(BOB)).toBeUndefined();
    expect(await db.store.vaultEntries.get({ teamId: 'T2', userId: ADA.userId })).toBeUndefined();
  });

  it('names who linked the Paperspace accounts asked about in one workspace, oldest link first', async () => {
    const CAL = { teamId: 'T1', userId: 'U_CAL' };
    await db.store.vaultEntries.put(BOB, {
      sealed: sealed(),
      account: { ...ACCOUNT, userId: 'u1bob' },
      at: 300,
    });
    await db.store.vaultEntries.put(CAL, { sealed: sealed(), account: ACCOUNT, at: 200 });
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: ACCOUNT, at: 100 });
    // The same Paperspace account linked in another workspace is not this workspace's to name.
    await db.store.vaultEntries.put(
      { teamId: 'T2', userId: 'U_ZED' },
      { sealed: sealed(), account: ACCOUNT, at: 50 },
    );
    await db.store.vaultEntries.put(
      { teamId: 'T1', userId: 'U_DEE' },
      {
        sealed: sealed(),
        account: { ...ACCOUNT, userId: 'u1dee' },
        at: 10,
      },
    );

    expect(await db.store.vaultEntries.linkedIn('T1', [ACCOUNT.userId, 'u1bob', 'u1nobody'])).toEqual([
      { slackUserId: ADA.userId, paperspaceUserId: ACCOUNT.userId },
      { slackUserId: CAL.userId, paperspaceUserId: ACCOUNT.userId },
      { slackUserId: BOB.userId, paperspaceUserId: 'u1bob' },
    ]);
    expect(await db.store.vaultEntries.linkedIn('T1', [])).toEqual([]);
  });

  it('keeps an account without a Paperspace team', async () => {
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: { ...ACCOUNT, teamId: null }, at: 1 });
    expect((await db.store.vaultEntries.get(ADA))?.account.teamId).toBeNull();
  });

  it('replaces an entry on a new link but remembers when the user first linked', async () => {
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: ACCOUNT, at: 100 });
    const newer = sealed();
    const account = { ...ACCOUNT, email: 'ada@new.example.com' };
    await db.store.vaultEntries.put(ADA, { sealed: newer, account, at: 200 });
    expect(await db.store.vaultEntries.get(ADA)).toEqual({
      ...ADA,
      sealed: newer,
      account,
      createdAt: 100,
      updatedAt: 200,
    });
  });

  it('reseals only while the entry is still the one that was read', async () => {
    const original = sealed('old');
    await db.store.vaultEntries.put(ADA, { sealed: original, account: ACCOUNT, at: 100 });
    const resealed = sealed('new');
    expect(await db.store.vaultEntries.reseal(ADA, original, resealed, 150)).toBe(true);
    expect(await db.store.vaultEntries.get(ADA)).toMatchObject({
      sealed: resealed,
      createdAt: 100,
      updatedAt: 150,
    });

    // The user linked again in between: the stale re-encryption must not overwrite the new link.
    const relinked = sealed('new');
    await db.store.vaultEntries.put(ADA, { sealed: relinked, account: ACCOUNT, at: 300 });
    expect(await db.store.vaultEntries.reseal(ADA, resealed, sealed('new'), 310)).toBe(false);
    expect((await db.store.vaultEntries.get(ADA))?.sealed).toEqual(relinked);
  });

  it('lists every entry, oldest first', async () => {
    await db.store.vaultEntries.put(BOB, { sealed: sealed(), account: ACCOUNT, at: 2 });
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: ACCOUNT, at: 1 });
    expect((await db.store.vaultEntries.list()).map((entry) => entry.userId)).toEqual(['U_ADA', 'U_BOB']);
  });

  it('deletes one user entry and says whether there was one', async () => {
    await db.store.vaultEntries.put(ADA, { sealed: sealed(), account: ACCOUNT, at: 1 });
    await db.store.vaultEntries.put(BOB, { sealed: sealed(), account: ACCOUNT, at: 1 });
    expect(await db.store.vaultEntries.delete(ADA)).toBe(true);
    expect(await db.store.vaultEntries.delete(ADA)).toBe(false);
    expect(await db.store.vaultEntries.get(ADA)).toBeUndefined();
    expect(await db.store.vaultEntries.get(BOB)).toBeDefined();
  });
});
