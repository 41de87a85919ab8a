// Bolt's installation store (@slack/oauth's InstallationStore) over our database: what GET
// /slack/oauth_redirect stores, and what Bolt's authorize reads for every request, so each workspace's
// requests run with that workspace's bot token. Installations are sealed (vault/installation-seal.ts);
// no token is ever logged. workspaceClients() answers the same question for work that is not a request
// (the scheduler's posts), by workspace id.
import type { Installation, InstallationQuery, InstallationStore } from '@slack/oauth';
import type { SlackInstallationRepository } from '../store/slack-installations.js';
import type { InstallationKey, InstallationSeal } from '../vault/installation-seal.js';

/** Thrown when a workspace has no installation: Bolt's authorize then drops the request unanswered. */
export class NotInstalledError extends Error {
  override readonly name = 'NotInstalledError';
}

export interface BotInstallationStore extends InstallationStore {
  /** The bot token that serves a workspace (its own install or its organisation's), if any. */
  botTokenFor(teamId: string): Promise<string | undefined>;
}

export interface InstallationStoreDeps {
  installations: SlackInstallationRepository;
  seal: InstallationSeal;
  now: () => number;
}

const keyOf = (installation: Installation): InstallationKey =>
  installation.isEnterpriseInstall
    ? { enterpriseId: installation.enterprise?.id, teamId: undefined }
    : { enterpriseId: installation.enterprise?.id, teamId: installation.team?.id };

export function createInstallationStore({
  installations,
  seal,
  now,
}: InstallationStoreDeps): BotInstallationStore {
  /**
   * Opens a stored installation; one sealed under an older VAULT_KEY key is sealed again under the
   * current one, so a rotation completes as workspaces use the bot, as it does for people's keys.
   * Losing that race to a reinstall is fine: the newer row is current anyway.
   */
  const open = async (key: InstallationKey, sealed: Parameters<InstallationSeal['open']>[1]) => {
    const plaintext = seal.open(key, sealed);
    if (!seal.isCurrent(sealed)) await installations.reseal(key, sealed, seal.seal(key, plaintext), now());
    return JSON.parse(plaintext) as Installation;
  };

  const fetchInstallation = async (query: InstallationQuery<boolean>): Promise<Installation> => {
    // A request from a workspace of an organisation that installed org-wide says is_enterprise_install.
    const org =
      query.enterpriseId === undefined ? undefined : { enterpriseId: query.enterpriseId, teamId: undefined };
    const own =
      query.isEnterpriseInstall || query.teamId === undefined
        ? undefined
        : { enterpriseId: query.enterpriseId, teamId: query.teamId };
    for (const key of [own, org]) {
      if (key === undefined) continue;
      const stored = await installations.get(key);
      if (stored === undefined) continue;
      if (key === org && query.teamId !== undefined && query.enterpriseId !== undefined) {
        await installations.noteServed(query.enterpriseId, query.teamId, now());
      }
      return await open(key, stored.sealed);
    }
    throw new NotInstalledError(
      `The app is not installed in ${query.teamId ?? '(no workspace)'}${query.enterpriseId ? ` of ${query.enterpriseId}` : ''}`,
    );
  };

  return {
    async storeInstallation(installation) {
      if (installation.bot?.token === undefined) throw new Error('The installation carries no bot token');
      const key = keyOf(installation as Installation);
      await installations.put(key, {
        isEnterpriseInstall: installation.isEnterpriseInstall === true,
        sealed: seal.seal(key, JSON.stringify(installation)),
        at: now(),
      });
    },

    fetchInstallation,

    async deleteInstallation(query) {
      await installations.delete(
        query.isEnterpriseInstall
          ? { enterpriseId: query.enterpriseId, teamId: undefined }
          : { enterpriseId: query.enterpriseId, teamId: query.teamId },
      );
    },

    async botTokenFor(teamId) {
      const stored = await installations.serving(teamId);
      if (stored === undefined) return undefined;
      return (await open({ enterpriseId: stored.enterpriseId, teamId: stored.teamId }, stored.sealed)).bot
        ?.token;
    },
  };
}
