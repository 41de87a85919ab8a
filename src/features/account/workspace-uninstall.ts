// When the app is uninstalled from a workspace (`app_uninstalled`) or its bot token is revoked
// (`tokens_revoked` naming the bot), the bot can no longer post there and must not keep people's keys:
// everything it stored for the workspace is purged (vault entries first), so no watch is polled and no
// reminder or share expiry is posted for it again, and one audit record says what went. Before that,
// the access accessor shares (v1) gave on Paperspace is removed with the sharers' keys, the last moment
// those keys exist; what could not be removed is named in the audit record and the log.
import { describeError } from '../../errors/describe-error.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import type { ListenerRouter } from '../../slack/router.js';
import { describeLeftAccess, revokeLeavingWorkspaceShares } from '../shares/workspace-shares.js';

/** Who the audit record names: Slack itself (Slackbot's id), not a person of the workspace. */
const SLACK_ITSELF = 'USLACKBOT';

export function registerWorkspaceUninstall(router: ListenerRouter, deps: ListenerDeps): void {
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

  router.event('app_uninstalled', async ({ body }) => {
    await purge(body.team_id, 'app_uninstalled');
  });

  router.event('tokens_revoked', async ({ event, body }) => {
    // Revoked user tokens are not the bot's concern: it holds none. Its own token is what matters.
    if ((event.tokens.bot ?? []).length === 0) return;
    await purge(body.team_id, 'tokens_revoked');
  });
}
