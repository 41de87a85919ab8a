// The OAuth installations on both databases, through the installation store Bolt uses: sealed rows,
// a workspace's own install before its organisation's, the workspaces an org-wide install served, and
// a row moved onto another workspace refused rather than handing that workspace someone else's token.
import { randomBytes } from 'node:crypto';
import type { Installation } from '@slack/oauth';
import { describe, expect, it } from 'vitest';
import { createInstallationStore } from '../../src/slack/installation-store.js';
import { createInstallationSeal } from '../../src/vault/installation-seal.js';
import { createKeyVault } from '../../src/vault/key-vault.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2026, 5, 1, 9, 0);

const workspaceInstall = (teamId: string, token: string): Installation<'v2', false> => ({
  team: { id: teamId, name: `Team ${teamId}` },
  enterprise: undefined,
  user: { id: 'U0ADMIN', token: undefined, scopes: undefined },
  bot: { id: 'B0BOT', userId: 'U0BOT', token, scopes: ['commands', 'chat:write'] },
  isEnterpriseInstall: false,
  appId: 'A0APP',
  tokenType: 'bot',
  authVersion: 'v2',
});

describe.each(storeFactories)('Slack installations on $name', (factory) => {
  const db = useFreshStore(factory);
  const installations = (keys = [randomBytes(32)]) =>
    createInstallationStore({
      installations: db.store.slackInstallations,
      seal: createInstallationSeal(createKeyVault({ keys, store: db.store, now: () => T0 })),
      now: () => T0,
    });

  it('stores each workspace sealed and answers each with its own token', async () => {
    const store = installations();
    await store.storeInstallation(workspaceInstall('T0ACME', 'xoxb-acme-secret'));
    await store.storeInstallation(workspaceInstall('T0BETA', 'xoxb-beta-secret'));
    expect(await store.botTokenFor('T0ACME')).toBe('xoxb-acme-secret');
    expect(await store.botTokenFor('T0BETA')).toBe('xoxb-beta-secret');
    expect(await store.botTokenFor('T0NEVER')).toBeUndefined();
    const row = await db.store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0ACME' });
    expect(row?.sealed.ciphertext.toString('latin1')).not.toContain('xoxb-acme-secret');
    await expect(
      store.fetchInstallation({ teamId: 'T0NEVER', enterpriseId: undefined, isEnterpriseInstall: false }),
    ).rejects.toThrow(/not installed in T0NEVER/);
  });

  it('serves an organisation workspaces from its org-wide install once a request of theirs came in', async () => {
    const store = installations();
    await store.storeInstallation({
      ...workspaceInstall('unused', 'xoxb-grid-secret'),
      team: undefined,
      enterprise: { id: 'E0GRID', name: 'Grid' },
      isEnterpriseInstall: true,
    } as unknown as Installation<'v2', true>);
    expect(await store.botTokenFor('T0GRIDA')).toBeUndefined();
    const fetched = await store.fetchInstallation({
      teamId: 'T0GRIDA',
      enterpriseId: 'E0GRID',
      isEnterpriseInstall: true,
    });
    expect(fetched.bot?.token).toBe('xoxb-grid-secret');
    expect(await store.botTokenFor('T0GRIDA')).toBe('xoxb-grid-secret');
    expect(await db.store.slackInstallations.servedTeams('E0GRID')).toEqual(['T0GRIDA']);

    await store.deleteInstallation?.({
      enterpriseId: 'E0GRID',
      teamId: undefined,
      isEnterpriseInstall: true,
    });
    expect(await store.botTokenFor('T0GRIDA')).toBeUndefined();
    expect(await db.store.slackInstallations.servedTeams('E0GRID')).toEqual([]);
  });

  it("serves an organisation's own id (its people's key) from its org-wide install, else its workspace install", async () => {
    const store = installations();
    await store.storeInstallation({
      ...workspaceInstall('T0GRIDA', 'xoxb-grid-a-secret'),
      enterprise: { id: 'E0GRID', name: 'Grid' },
    } as unknown as Installation<'v2', false>);
    // A scheduled post for a person keyed by their organisation goes out with a token of that organisation.
    expect(await store.botTokenFor('E0GRID')).toBe('xoxb-grid-a-secret');
    await store.storeInstallation({
      ...workspaceInstall('unused', 'xoxb-grid-org-secret'),
      team: undefined,
      enterprise: { id: 'E0GRID', name: 'Grid' },
      isEnterpriseInstall: true,
    } as unknown as Installation<'v2', true>);
    expect(await store.botTokenFor('E0GRID')).toBe('xoxb-grid-org-secret');
    expect(await store.botTokenFor('E0OTHER')).toBeUndefined();
  });

  it('refuses a sealed row copied onto another workspace, and seals a row opened with an older key again', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    await installations([older]).storeInstallation(workspaceInstall('T0ACME', 'xoxb-acme-secret'));
    await installations([older]).storeInstallation(workspaceInstall('T0BETA', 'xoxb-beta-secret'));
    const acme = await db.store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0ACME' });
    if (acme === undefined) throw new Error('the installation was not stored');
    await db.store.slackInstallations.put(
      { enterpriseId: undefined, teamId: 'T0EVIL' },
      { isEnterpriseInstall: false, sealed: acme.sealed, at: T0 },
    );
    const rotated = installations([newer, older]);
    expect(await rotated.botTokenFor('T0ACME')).toBe('xoxb-acme-secret');
    await expect(rotated.botTokenFor('T0EVIL')).rejects.toThrow(/T0EVIL fails authentication/);
    // Acme's requests came in during the rotation, so its row moved to the new key; Beta's did not.
    expect(await installations([newer]).botTokenFor('T0ACME')).toBe('xoxb-acme-secret');
    await expect(installations([newer]).botTokenFor('T0BETA')).rejects.toThrow(/no longer holds/);
  });

  it('moves every installation to the new key on rotateAll, after which the old key alone reads no token', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    const before = installations([older]);
    await before.storeInstallation(workspaceInstall('T0ACME', 'xoxb-acme-secret'));
    await before.storeInstallation(workspaceInstall('T0BETA', 'xoxb-beta-secret'));
    await before.storeInstallation({
      ...workspaceInstall('unused', 'xoxb-grid-secret'),
      team: undefined,
      enterprise: { id: 'E0GRID', name: 'Grid' },
      isEnterpriseInstall: true,
    } as unknown as Installation<'v2', true>);

    const rotating = createKeyVault({ keys: [newer, older], store: db.store, now: () => T0 });
    expect(await rotating.verify()).toEqual({ records: 0, installations: 3, staleRecords: 3 });
    expect(await rotating.rotateAll()).toBe(3);
    expect(await rotating.verify()).toEqual({ records: 0, installations: 3, staleRecords: 0 });

    // The new key alone: the bot starts, and every workspace is served with its own token.
    const newOnly = createKeyVault({ keys: [newer], store: db.store, now: () => T0 });
    expect(await newOnly.verify()).toEqual({ records: 0, installations: 3, staleRecords: 0 });
    const after = installations([newer]);
    expect(await after.botTokenFor('T0ACME')).toBe('xoxb-acme-secret');
    expect(await after.botTokenFor('T0BETA')).toBe('xoxb-beta-secret');
    const grid = await after.fetchInstallation({
      teamId: 'T0GRIDA',
      enterpriseId: 'E0GRID',
      isEnterpriseInstall: true,
    });
    expect(grid.bot?.token).toBe('xoxb-grid-secret');

    // The old key alone: the bot refuses to start, and no row opens under it, even one relabelled
    // with the old key's id (the ciphertext itself is under the new key).
    const oldOnly = createKeyVault({ keys: [older], store: db.store, now: () => T0 });
    await expect(oldOnly.verify()).rejects.toThrow(/no longer holds/);
    const oldSeal = createInstallationSeal(oldOnly);
    const newSeal = createInstallationSeal(newOnly);
    const rows = await db.store.slackInstallations.list();
    expect(rows).toHaveLength(3);
    for (const row of rows) {
      expect(newSeal.isCurrent(row.sealed)).toBe(true);
      expect(() => oldSeal.open(row, row.sealed)).toThrow(/no longer holds/);
      const relabelled = { ...row.sealed, keyId: oldSeal.seal(row, 'probe').keyId };
      expect(() => oldSeal.open(row, relabelled)).toThrow(/fails authentication/);
    }
  });
});
