import { randomBytes } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore, type Store } from '../../src/store/store.js';
import { vaultKeyId } from '../../src/vault/envelope.js';
import { createKeyVault, type KeyVault } from '../../src/vault/key-vault.js';
import { VaultError } from '../../src/vault/vault-error.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const BOB = { teamId: 'T1', userId: 'U_BOB' };
const ADA_KEY = 'adaadaadaada0000111122223333c0de';
const ADA_TOKEN = 'eyJhbGciOiJIUzI1NiJ9.ada-access-token.sig';
const BOB_KEY = 'bobbobbobbob4444555566667777beef';
const ACCOUNT = { userId: 'ua1b2c3', email: 'ada@example.com', teamId: 'tz9y8' };

/** Runs `action` and returns the VaultError it throws. */
async function vaultError(action: () => Promise<unknown>): Promise<VaultError> {
  try {
    await action();
  } catch (error) {
    if (error instanceof VaultError) return error;
    throw error;
  }
  throw new Error('expected a VaultError');
}

describe('createKeyVault', () => {
  let directory: string;
  let path: string;
  let store: Store;
  let clock: number;
  const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
  const vaultWith = (keys: Buffer[]): KeyVault => createKeyVault({ keys, store, now: () => clock });

  /** The vault_entries rows exactly as SQLite holds them, read through a separate connection. */
  const rawRows = () => {
    const raw = new Database(path, { readonly: true });
    try {
      return raw.prepare('SELECT * FROM vault_entries ORDER BY slack_team_id, slack_user_id').all();
    } finally {
      raw.close();
    }
  };

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'vault-test-'));
    path = join(directory, 'bot.db');
    store = await openStore(`sqlite:${path}`);
    clock = 1_000;
  });
  afterEach(async () => {
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('gives back the credentials a user linked, and only to that user', async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    await vault.link(BOB, { apiKey: BOB_KEY, account: { ...ACCOUNT, email: 'bob@example.com' } });
    expect(await vault.credentials(ADA)).toEqual({ apiKey: ADA_KEY, accessToken: ADA_TOKEN });
    expect(await vault.credentials(BOB)).toEqual({ apiKey: BOB_KEY });
    expect(await vault.credentials({ teamId: 'T1', userId: 'U_EVE' })).toBeUndefined();
  });

  it('shows the account for whoami without decrypting anything', async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    clock = 2_000;
    await vault.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    // Even a vault without the right key can say who is linked.
    expect(await vaultWith([randomBytes(32)]).account(ADA)).toEqual({
      ...ACCOUNT,
      linkedAt: 1_000,
      updatedAt: 2_000,
    });
    expect(await vault.account(BOB)).toBeUndefined();
  });

  it('gives the credentials and the account of one link together, and refuses a tampered one as credentials() does', async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    expect(await vault.linked(ADA)).toEqual({
      credentials: { apiKey: ADA_KEY, accessToken: ADA_TOKEN },
      account: { ...ACCOUNT, linkedAt: 1_000, updatedAt: 1_000 },
    });
    expect(await vault.linked(BOB)).toBeUndefined();

    const adas = await store.vaultEntries.get(ADA);
    if (adas === undefined) throw new Error('Ada should be linked');
    await store.vaultEntries.put(BOB, { sealed: adas.sealed, account: adas.account, at: 5 });
    expect((await vaultError(() => vault.linked(BOB))).code).toBe('tampered');
  });

  it('masks the API key down to its last four characters', async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    await vault.link(BOB, { apiKey: 'short1a2b', account: ACCOUNT });
    expect(await vault.maskedKey(ADA)).toBe('••••c0de');
    expect(await vault.maskedKey(BOB)).toBe('••••');
    expect(await vault.maskedKey({ teamId: 'T1', userId: 'U_EVE' })).toBeUndefined();
  });

  it('replaces the credentials on a new link and forgets them on unlink', async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    await vault.link(ADA, { apiKey: BOB_KEY, account: ACCOUNT });
    expect(await vault.credentials(ADA)).toEqual({ apiKey: BOB_KEY });
    expect(await vault.unlink(ADA)).toBe(true);
    expect(await vault.unlink(ADA)).toBe(false);
    expect(await vault.credentials(ADA)).toBeUndefined();
    expect(await vault.account(ADA)).toBeUndefined();
  });

  it('refuses empty credentials without repeating them', async () => {
    const vault = vaultWith([newKey]);
    const error = await vaultError(() =>
      vault.link(ADA, { apiKey: '', accessToken: ADA_TOKEN, account: ACCOUNT }),
    );
    expect(error.code).toBe('bad_credentials');
    expect(error.message).not.toContain(ADA_TOKEN);
    expect(await vault.credentials(ADA)).toBeUndefined();
  });

  it("refuses a record copied onto another user's row", async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    const adas = await store.vaultEntries.get(ADA);
    if (adas === undefined) throw new Error('Ada should be linked');
    await store.vaultEntries.put(BOB, { sealed: adas.sealed, account: adas.account, at: 5 });

    const error = await vaultError(() => vault.credentials(BOB));
    expect(error.code).toBe('tampered');
    expect(error.message).toContain('T1/U_BOB');
    expect(error.message).not.toContain(ADA_KEY);
    const atStart = await vaultError(() => vault.verify());
    expect(atStart.message).toMatch(/1 stored record failed authentication .*\(T1\/U_BOB\)/);
    expect(await vault.credentials(ADA)).toEqual({ apiKey: ADA_KEY });
  });

  it("answers another replica's new link and logout at once, though it opened the old key before", async () => {
    const here = vaultWith([newKey]);
    const replica = vaultWith([newKey]);
    await here.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    expect(await here.credentials(ADA)).toEqual({ apiKey: ADA_KEY });
    await replica.link(ADA, { apiKey: BOB_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    expect(await here.credentials(ADA)).toEqual({ apiKey: BOB_KEY, accessToken: ADA_TOKEN });
    await replica.unlink(ADA);
    expect(await here.credentials(ADA)).toBeUndefined();
  });

  it("still refuses a record altered after the same person's key was opened", async () => {
    const vault = vaultWith([newKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    await vault.link(BOB, { apiKey: BOB_KEY, account: ACCOUNT });
    expect(await vault.credentials(BOB)).toEqual({ apiKey: BOB_KEY });
    const adas = await store.vaultEntries.get(ADA);
    if (adas === undefined) throw new Error('Ada should be linked');
    await store.vaultEntries.put(BOB, { sealed: adas.sealed, account: adas.account, at: 5 });
    expect((await vaultError(() => vault.credentials(BOB))).code).toBe('tampered');
  });

  it('re-encrypts a record read with an older key under the first key', async () => {
    await vaultWith([oldKey]).link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    await vaultWith([oldKey]).link(BOB, { apiKey: BOB_KEY, account: ACCOUNT });
    const rotated = vaultWith([newKey, oldKey]);
    expect(rotated.keyIds).toEqual([vaultKeyId(newKey), vaultKeyId(oldKey)]);
    expect(await rotated.verify()).toEqual({ records: 2, installations: 0, staleRecords: 2 });

    clock = 9_000;
    expect(await rotated.credentials(ADA)).toEqual({ apiKey: ADA_KEY, accessToken: ADA_TOKEN });
    expect(await store.vaultEntries.get(ADA)).toMatchObject({
      sealed: { keyId: vaultKeyId(newKey) },
      createdAt: 1_000,
      updatedAt: 9_000,
    });
    expect(await rotated.verify()).toEqual({ records: 2, installations: 0, staleRecords: 1 });
    // Ada's record no longer needs the old key; Bob's, not read yet, still does.
    expect(await vaultWith([newKey]).credentials(ADA)).toEqual({ apiKey: ADA_KEY, accessToken: ADA_TOKEN });
    expect((await vaultError(() => vaultWith([newKey]).credentials(BOB))).code).toBe('unknown_key');
  });

  it('re-encrypts every old record at once on rotateAll, after which the old key can go', async () => {
    await vaultWith([oldKey]).link(ADA, { apiKey: ADA_KEY, account: ACCOUNT });
    await vaultWith([oldKey]).link(BOB, { apiKey: BOB_KEY, account: ACCOUNT });
    await vaultWith([newKey]).link(
      { teamId: 'T1', userId: 'U_NEW' },
      { apiKey: 'n'.repeat(32), account: ACCOUNT },
    );
    const rotated = vaultWith([newKey, oldKey]);
    expect(await rotated.rotateAll()).toBe(2);
    expect(await rotated.verify()).toEqual({ records: 3, installations: 0, staleRecords: 0 });
    expect(await vaultWith([newKey]).verify()).toEqual({ records: 3, installations: 0, staleRecords: 0 });
    expect(await vaultWith([newKey]).credentials(BOB)).toEqual({ apiKey: BOB_KEY });
  });

  it('fails verify with a wrong VAULT_KEY, naming the missing key id, without touching a record', async () => {
    const lostKey = randomBytes(32);
    await vaultWith([lostKey]).link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    await vaultWith([lostKey]).link(BOB, { apiKey: BOB_KEY, account: ACCOUNT });
    const before = rawRows();
    const wrong = vaultWith([newKey]);

    const error = await vaultError(() => wrong.verify());
    expect(error.code).toBe('unknown_key');
    expect(error.message).toContain(
      `VAULT_KEY does not contain the key that encrypted 2 stored records (key id ${vaultKeyId(lostKey)})`,
    );
    expect(error.message).toContain('Add the old key after the new one');
    expect(error.message).toContain('No record was changed');
    for (const secret of [
      ADA_KEY,
      ADA_TOKEN,
      BOB_KEY,
      lostKey.toString('base64'),
      newKey.toString('base64'),
    ]) {
      expect(error.message).not.toContain(secret);
    }
    // Neither reading nor rotating with the wrong key changes anything either.
    expect((await vaultError(() => wrong.credentials(ADA))).code).toBe('unknown_key');
    expect((await vaultError(() => wrong.rotateAll())).code).toBe('unknown_key');
    expect(rawRows()).toEqual(before);
    expect(await vaultWith([lostKey]).credentials(ADA)).toEqual({ apiKey: ADA_KEY, accessToken: ADA_TOKEN });
  });

  it('keeps neither the API key nor the access token in plaintext anywhere in the database files', async () => {
    const vault = vaultWith([newKey, oldKey]);
    await vault.link(ADA, { apiKey: ADA_KEY, accessToken: ADA_TOKEN, account: ACCOUNT });
    await vaultWith([oldKey]).link(BOB, { apiKey: BOB_KEY, account: ACCOUNT });
    await vault.credentials(BOB); // a re-encryption writes too
    await store.close();
    store = await openStore(`sqlite:${path}`);

    const files = readdirSync(directory).map((name) => readFileSync(join(directory, name)));
    const everywhere = Buffer.concat(files);
    for (const secret of [ADA_KEY, ADA_TOKEN, BOB_KEY]) {
      expect(everywhere.includes(secret), secret).toBe(false);
      expect(everywhere.includes(Buffer.from(secret).toString('base64').slice(0, 16))).toBe(false);
    }
    // The search does find what is stored in the clear, so it would find a leaked key.
    expect(everywhere.includes('ada@example.com')).toBe(true);
  });
});
