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

  it('refuses a sealed row copied onto another workspace, and opens rows sealed with an older key', async () => {
    const [older, newer] = [randomBytes(32), randomBytes(32)];
    await installations([older]).storeInstallation(workspaceInstall('T0ACME', 'xoxb-acme-secret'));
    const acme = await db.store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0ACME' });
    if (acme === undefined) throw new Error('the installation was not stored');
    await db.store.slackInstallations.put(
      { enterpriseId: undefined, teamId: 'T0EVIL' },
      { isEnterpriseInstall: false, sealed: acme.sealed, at: T0 },
    );
    const rotated = installations([newer, older]);
    expect(await rotated.botTokenFor('T0ACME')).toBe('xoxb-acme-secret');
    await expect(rotated.botTokenFor('T0EVIL')).rejects.toThrow(/T0EVIL fails authentication/);
    await expect(installations([newer]).botTokenFor('T0ACME')).rejects.toThrow(/no longer holds/);
  });
});
