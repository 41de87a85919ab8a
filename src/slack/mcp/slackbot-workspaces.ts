// The Web API client a Slackbot call from a workspace is answered with: the installation's that serves
// that workspace (OAuth), or the one workspace's when the call comes from it. A call from anywhere else
// gets none, and is told the app is not installed there: a user id is only unique within a workspace
// (or an organisation), so a known id under another team must not be taken for the person we know.
import type { WebClient } from '@slack/web-api';
import type { SlackApp } from '../app.js';
import { type BotInstallationStore, NotInstalledError } from '../installation-store.js';
import type { SlackbotCaller } from './slackbot-caller.js';

/** The Web API client of the workspace a call came from; undefined where the app is not installed. */
export type SlackbotWorkspace = (caller: SlackbotCaller) => Promise<WebClient | undefined>;

type Served = { installations: BotInstallationStore | undefined } | { botToken: string };

export function slackbotWorkspaces(
  slackApp: Pick<SlackApp, 'requestClient'>,
  served: Served,
): SlackbotWorkspace {
  if ('installations' in served) {
    const { installations } = served;
    if (installations === undefined) throw new Error('an OAuth installation needs its installation store');
    const clients = new Map<string, WebClient>();
    return async (caller) => {
      // Found as Bolt finds a command's: the workspace's own install, else its organisation's.
      const token = await installations
        .fetchInstallation({
          teamId: caller.teamId,
          enterpriseId: caller.enterpriseId,
          isEnterpriseInstall: false,
        })
        .then(
          (installation) => installation.bot?.token,
          (error: unknown) => {
            if (error instanceof NotInstalledError) return undefined;
            throw error;
          },
        );
      if (token === undefined) return undefined;
      let client = clients.get(token);
      if (client === undefined) {
        client = slackApp.requestClient(token);
        clients.set(token, client);
      }
      return client;
    };
  }
  const client = slackApp.requestClient(served.botToken);
  // Which workspace (and organisation) the token serves, asked once; asked again after a failure.
  let workspace: Promise<{ teamId: string | undefined; enterpriseId: string | undefined }> | undefined;
  return async (caller) => {
    workspace ??= client.auth.test().then(
      (answer) => ({ teamId: answer.team_id, enterpriseId: answer.enterprise_id }),
      (error: unknown) => {
        workspace = undefined;
        throw error;
      },
    );
    const ours = await workspace;
    const fromIt =
      caller.teamId === ours.teamId ||
      (ours.enterpriseId !== undefined &&
        ours.enterpriseId !== '' &&
        caller.enterpriseId === ours.enterpriseId);
    return fromIt ? client : undefined;
  };
}
