// Someone outside the sharer's Paperspace team: Ada, whose key is her own individual account, clicks
// Get access on a share of the team's machine. She is told in words that the machine belongs to a
// team she is not in, and nothing is asked of Paperspace on her behalf (no write at all, so no raw
// refusal can reach her either). On the legacy API, where a team machine can be made accessible to
// her, her cards offer no Settings, Access or Destroy on it: administering her own account is not
// administering the team. Runs on both APIs (vitest.config.ts).
import { describe, expect, it } from 'vitest';
import { machineIdFromBlockId } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { messageText } from '../../scheduler/harness.js';
import { logMark } from '../../support/paperspace-calls.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command } from '../account/helpers.js';

const CHANNEL = 'C0CHANNEL';
const MAYA = USERS.maya.slackId;
const ADA = USERS.ada.slackId;
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';

const bot = useTestBot({ linked: ['maya', 'ada'] });

type Element = { action_id?: string; value?: string };
type Block = { block_id?: string; elements?: Element[]; accessory?: Element };

function buttonValue(message: { blocks?: unknown[] }, actionId: string): string {
  const elements = ((message.blocks ?? []) as Block[]).flatMap((block) => [
    ...(block.elements ?? []),
    ...(block.accessory ? [block.accessory] : []),
  ]);
  const value = elements.find((element) => element.action_id === actionId)?.value;
  if (value === undefined) throw new Error(`no ${actionId} button in ${JSON.stringify(message.blocks)}`);
  return value;
}

/** Maya shares team-build in the channel; answers the share's post as it stands. */
async function mayaSharesTeamBuild() {
  const asked = bot.requests.slashCommand({ text: 'share team-build', userId: MAYA, channelId: CHANNEL });
  await bot.send(asked);
  const offer = await bot.slack.waitForResponse(asked.responseUrlId ?? '');
  const confirm = bot.requests.blockAction({
    actionId: ActionId.shareConfirm,
    value: buttonValue(offer, ActionId.shareConfirm),
    userId: MAYA,
    channelId: CHANNEL,
    ephemeral: true,
  });
  await bot.send(confirm);
  await bot.slack.waitForResponse(confirm.responseUrlId ?? '');
  const posted = bot.slack.calls('chat.update').at(-1) ?? bot.slack.calls('chat.postMessage').at(-1);
  if (posted === undefined) throw new Error('the share was not posted');
  return posted.args as { ts: string; blocks?: unknown[] };
}

/** Requests that change something at Paperspace (GraphQL reads are POSTs too, and change nothing). */
function writesSince(mark: number) {
  return bot.emulator.state
    .requests()
    .slice(mark)
    .filter((request) => request.method !== 'GET' && !request.path.includes('graphql'));
}

describe('Get access for someone outside the sharer’s team', () => {
  it('tells an outsider in words that the machine is a team’s she is not in, and sends Paperspace nothing', async () => {
    const post = await mayaSharesTeamBuild();
    const mark = logMark(bot.emulator.state);
    const click = bot.requests.blockAction({
      actionId: ActionId.shareClaim,
      value: buttonValue(post, ActionId.shareClaim),
      userId: ADA,
      channelId: CHANNEL,
      message: { ts: post.ts },
    });
    await bot.send(click);
    const told = messageText(await bot.slack.waitForResponse(click.responseUrlId ?? ''));
    expect(told).toContain('team-build belongs to a team you are not in');
    expect(told).toContain('nothing was changed');
    expect(told).not.toMatch(/\(400\)|not a member of this team|u1ada/);
    expect(writesSince(mark)).toEqual([]);
    expect(bot.emulator.state.accessors('psorb002')).not.toContain('u1ada');
  });
});

describe('an outsider’s cards of a team machine she can see (legacy API)', () => {
  it.skipIf(onV1)('offer her no Settings, Access or Destroy, and name its owner', async () => {
    // The legacy API lets the owner make anyone an accessor: Ada can see Maya's team-build now.
    const granted = await command(bot, 'maya', `access team-build grant <@${ADA}|ada>`);
    expect(messageText(granted)).not.toContain('refused');
    expect(bot.emulator.state.accessors('psorb002')).toContain('u1ada');

    const list = await command(bot, 'ada', 'list');
    const blocks = list.blocks as Block[];
    const actions = (machineId: string) =>
      blocks
        .find((block) => machineIdFromBlockId(block.block_id ?? '') === machineId)
        ?.elements?.map((element) => element.action_id);
    expect(actions('psorb002')).toBeDefined();
    expect(actions('psorb002')).not.toContain(ActionId.machineOverflow);
    expect(actions('psorb002')).not.toContain(ActionId.machineStart);
    expect(actions('psorb002')).toContain(ActionId.requestPower);
    expect(messageText(list)).toContain(`owned by <@${MAYA}>`);
    // Her own machines stay hers, with every button.
    expect(actions('psada001')).toContain(ActionId.machineOverflow);

    const shown = await command(bot, 'ada', 'show team-build');
    const shownActions = (shown.blocks as Block[]).flatMap((block) => block.elements ?? []);
    expect(shownActions.map((element) => element.action_id)).not.toContain(ActionId.machineOverflow);
  });
});
