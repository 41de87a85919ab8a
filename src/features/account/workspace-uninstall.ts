// When the app is uninstalled from a workspace (`app_uninstalled`) or its bot token is revoked
// (`tokens_revoked` naming the bot), the bot can no longer post there and must not keep people's keys:
// everything it stored for the workspace is purged (vault entries first), so no watch is polled and no
// reminder or share expiry is posted for it again, and one audit record says what went. Before that,
// the access accessor shares (v1) gave on Paperspace is removed with the sharers' keys, the last moment
// those keys exist; what could not be removed is named in the audit record and the log. Installed by
// OAuth, the workspace's installation (its bot token) goes with its data; an organisation's org-wide
// install, uninstalled, takes every workspace it served with it.
import { describeError } from '../../errors/describe-error.js';
import type { ListenerRouter } from '../../slack/router.js';
import { describeLeftAccess, revokeLeavingWorkspaceShares } from '../shares/workspace-shares.js';
import type { AccountDeps } from './account-deps.js';

/** Who the audit record names: Slack itself (Slackbot's id), not a person of the workspace. */
const SLACK_ITSELF = 'USLACKBOT';

export function registerWorkspaceUninstall(router: ListenerRouter, deps: AccountDeps): void {
  const purge = async (teamId: string, cause: string) => {
    // Best effort: a share whose access could not be removed never keeps the keys from being purged.
    const left = await revokeLeavingWorkspaceShares(deps, teamId).catch((error: unknown) => {
      deps.logger.error(
        { teamId, error: describeError(error) },
        'could not read the shares of a leaving workspace',
      );
      return undefined;
    });
    const leftNote =
      left === undefined
        ? '; access given by shares not checked (the shares could not be read)'
        : left.length === 0
          ? ''
          : `; access left in place on Paperspace: ${describeLeftAccess(left)}`;
    if (leftNote !== '')
      deps.logger.warn({ teamId, cause, left: leftNote }, 'a leaving workspace keeps shared access');
    await deps.audit.run(
      { user: { teamId, userId: SLACK_ITSELF }, action: 'workspace.purge', note: cause + leftNote },
      async () => {
        const purged = await deps.store.workspaces.purge(teamId);
        deps.logger.info({ teamId, cause, purged }, 'purged what the bot stored for a workspace');
        return purged;
      },
    );
  };

  const leave = async (
    body: { team_id: string; enterprise_id?: string; authorizations?: { is_enterprise_install?: boolean }[] },
    cause: string,
  ) => {
    const orgWide = body.authorizations?.[0]?.is_enterprise_install === true ? body.enterprise_id : undefined;
    if (orgWide === undefined) {
      await purge(body.team_id, cause);
      return;
    }
    const teams = await deps.store.slackInstallations.servedTeams(orgWide);
    for (const teamId of teams) await purge(teamId, `${cause} (org-wide, ${orgWide})`);
    // The organisation's people are keyed by the organisation itself (slack/slack-person.ts).
    await purge(orgWide, `${cause} (org-wide, ${orgWide})`);
    await deps.store.slackInstallations.delete({ enterpriseId: orgWide, teamId: undefined });
    deps.logger.info(
      { enterpriseId: orgWide, workspaces: teams.length, cause },
      'removed an org-wide installation',
    );
  };

  router.event('app_uninstalled', async ({ body }) => {
    await leave(body, 'app_uninstalled');
  });

  router.event('tokens_revoked', async ({ event, body }) => {
    // Revoked user tokens are not the bot's concern: it holds none. Its own token is what matters.
    if ((event.tokens.bot ?? []).length === 0) return;
    await leave(body, 'tokens_revoked');
  });
}
