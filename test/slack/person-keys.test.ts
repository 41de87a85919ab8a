// People are keyed the same way on every surface (src/slack/slack-person.ts), end to end with signed
// requests into the real receiver: a person who linked their key with a command is recognised when they
// click in a channel shared with another workspace, and from another workspace of their Enterprise Grid
// organisation; people of two workspaces that happen to share a user id never share a key.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../src/slack/ids.js';
import { textOf } from '../features/account/helpers.js';
import { USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

const bot = useTestBot();
const ada = USERS.ada;
// Each test its own organisation and workspaces: the bot (and its database) is shared by the file's tests.
const [GRID_1, GRID_2, GRID_3] = ['E0GRID1', 'E0GRID2', 'E0GRID3'];

/** `/ps <text>` typed by Ada in `teamId` (of `enterpriseId`); the reply posted to its response_url. */
async function ps(text: string, teamId: string, enterpriseId?: string) {
  const request = bot.requests.slashCommand({
    text,
    userId: ada.slackId,
    teamId,
    ...(enterpriseId ? { enterpriseId } : {}),
  });
  expect((await bot.send(request)).status).toBe(200);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Ada links her key the way a person does: /ps login, then the modal submitted. */
async function linkFromCommand(teamId: string, enterpriseId?: string) {
  const login = bot.requests.slashCommand({
    text: 'login',
    userId: ada.slackId,
    teamId,
    ...(enterpriseId ? { enterpriseId } : {}),
  });
  await bot.send(login);
  await bot.slack.waitFor('views.open');
  const submitted = await bot.send(
    bot.requests.viewSubmission({
      callbackId: 'login_modal',
      userId: ada.slackId,
      teamId,
      ...(enterpriseId ? { enterpriseId } : {}),
      values: {
        api_key: { api_key_input: ada.apiKey },
        access_token: { access_token_input: '' },
        paperspace_email: { paperspace_email_input: '' },
      },
    }),
  );
  expect(textOf(submitted.body)).toContain(ada.email);
}

const linkedWhoami = (reply: { blocks?: unknown }) => textOf(reply.blocks).includes(ada.email);

describe('people keyed the same way on every surface', () => {
  it('recognises a person linked from a command on a click in a channel shared with another workspace', async () => {
    // Typed in a channel that workspace B hosts and shares with Ada's workspace A: the command names B.
    await linkFromCommand('T1GRIDB', GRID_1);
    // The Log in button in the same channel: the click names B as its team and A as Ada's own.
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.login,
        userId: ada.slackId,
        teamId: 'T1GRIDA',
        channelTeamId: 'T1GRIDB',
        enterpriseId: GRID_1,
        ephemeral: true,
      }),
    );
    const filled = await bot.slack.waitFor('views.update');
    expect(textOf(filled.args.view)).toContain(`You are linked as *${ada.email}*`);
  });

  it("recognises an organisation's person in another of its workspaces, with no second login", async () => {
    await linkFromCommand('T2GRIDA', GRID_2);
    expect(linkedWhoami(await ps('whoami', 'T2GRIDB', GRID_2))).toBe(true);
  });

  it('never gives the same user id of two workspaces one key', async () => {
    await linkFromCommand('T3ALPHA');
    expect(linkedWhoami(await ps('whoami', 'T3ALPHA'))).toBe(true);
    // Another workspace (no organisation) whose person has the same id, and an organisation's: neither
    // is Ada of T3ALPHA.
    expect(linkedWhoami(await ps('whoami', 'T3OTHER'))).toBe(false);
    expect(linkedWhoami(await ps('whoami', 'T3GRIDA', GRID_3))).toBe(false);
    // Ada of the organisation links her own key; logging her out leaves T3ALPHA's Ada linked.
    await linkFromCommand('T3GRIDA', GRID_3);
    await ps('logout', 'T3GRIDB', GRID_3);
    expect(linkedWhoami(await ps('whoami', 'T3GRIDA', GRID_3))).toBe(false);
    expect(linkedWhoami(await ps('whoami', 'T3ALPHA'))).toBe(true);
  });
});
