import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type AccountLinking, createAccountLinking } from '../../../src/features/account/account-linking.js';
import { createLogger } from '../../../src/logger.js';
import { createAuditTrail } from '../../../src/store/audit-trail.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { createKeyVault, type KeyVault } from '../../../src/vault/key-vault.js';
import { createPaperspaceClientFactory } from '../../../src/vault/paperspace-clients.js';
import { type RunningEmulator, startEmulator } from '../../../tools/emulator/index.js';

const ADA = { teamId: 'T1', userId: 'U_ADA' };
const MAYA = { teamId: 'T1', userId: 'U_MAYA' };

describe('createAccountLinking', () => {
  let directory: string;
  let store: Store;
  let emulator: RunningEmulator;
  let vault: KeyVault;
  let linking: AccountLinking;
  const linkingWith = (keyVault: KeyVault, checkTimeoutMs?: number) =>
    createAccountLinking({
      clients: createPaperspaceClientFactory({
        vault: keyVault,
        baseUrl: emulator.url,
        graphqlUrl: emulator.graphqlUrl,
      }),
      vault: keyVault,
      audit: createAuditTrail({
        audit: store.audit,
        now: () => 0,
        logger: createLogger({ level: 'silent' }),
      }),
      ...(checkTimeoutMs === undefined ? {} : { checkTimeoutMs }),
    });

  beforeEach(async () => {
    directory = mkdtempSync(join(tmpdir(), 'linking-test-'));
    store = await openStore(`sqlite:${join(directory, 'bot.db')}`, { now: () => 0 });
    emulator = await startEmulator();
    vault = createKeyVault({ keys: [randomBytes(32)], store, now: () => 0 });
    linking = linkingWith(vault);
  });
  afterEach(async () => {
    await emulator.close();
    await store.close();
    rmSync(directory, { recursive: true, force: true });
  });

  it('finds the account of an individual key from the users it lists', async () => {
    const outcome = await linking.link(ADA, { apiKey: 'demo-key-ada-individual' });
    expect(outcome).toMatchObject({
      ok: true,
      account: { userId: 'u1ada', email: 'ada.park@example.com' },
      maskedKey: '••••dual',
      hasAccessToken: false,
    });
  });

  it("proves a team administrator's access token by listing a drive", async () => {
    const outcome = await linking.link(MAYA, {
      apiKey: 'demo-key-maya-team-admin',
      accessToken: ' demo-token-maya-team-admin ',
      email: 'maya.chen@orbital.example',
      slackEmail: 'Maya.Chen@orbital.example',
    });
    expect(outcome).toMatchObject({
      ok: true,
      hasAccessToken: true,
      account: { userId: 'u1maya', teamId: 'te1orbit' },
    });
    expect(await vault.credentials(MAYA)).toEqual({
      apiKey: 'demo-key-maya-team-admin',
      accessToken: 'demo-token-maya-team-admin',
    });
  });

  it('refuses an e-mail that belongs to nobody of the key’s account', async () => {
    const outcome = await linking.link(ADA, {
      apiKey: 'demo-key-ada-individual',
      email: 'maya.chen@orbital.example',
    });
    expect(outcome).toEqual({ ok: false, problems: { email: expect.stringContaining('another e-mail') } });
    expect(await vault.account(ADA)).toBeUndefined();
  });

  it('says Paperspace did not answer in time when the check outlives its timeout', async () => {
    await emulator.close();
    emulator = await startEmulator({ latencyMs: 300 });
    const outcome = await linkingWith(vault, 50).link(ADA, { apiKey: 'demo-key-ada-individual' });
    expect(outcome).toEqual({
      ok: false,
      problems: { apiKey: expect.stringContaining('did not answer within') },
    });
    expect(await vault.account(ADA)).toBeUndefined();
  });

  it('forgets a record that no longer opens, so a lost vault key never locks anyone in', async () => {
    await linking.link(ADA, { apiKey: 'demo-key-ada-individual' });
    const otherVault = createKeyVault({ keys: [randomBytes(32)], store, now: () => 0 });
    await expect(otherVault.credentials(ADA)).rejects.toThrow();
    expect(await linkingWith(otherVault).unlink(ADA)).toEqual({ maskedKey: undefined });
    expect(await otherVault.account(ADA)).toBeUndefined();
    const [audit] = await store.audit.list({ userId: ADA.userId, limit: 1 });
    expect(audit).toMatchObject({ action: 'account.unlink', outcome: 'ok' });
  });

  it('answers undefined to an unlink with nothing linked, and records nothing', async () => {
    expect(await linking.unlink(ADA)).toBeUndefined();
    expect(await store.audit.list({ userId: ADA.userId, limit: 5 })).toEqual([]);
  });
});
