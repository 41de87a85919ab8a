// A teammate's machine says whose it is, on every card drawn for one person (a /ps list row, /ps show,
// App Home): the owner's Slack mention once they linked their key here, else their name as Paperspace
// lists the team. "Ask the owner" says what it asks and, before anything is sent, whom; the owner's DM
// says who asks what of which machine with a button to do it, and the asker is told where it went (or,
// when the owner has not linked a key, that and how to reach them). API v1 names no owner: a card
// there names the owner the bot recorded, or says there is none yet.
import { describe, expect, it } from 'vitest';
import { machineIdFromBlockId } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';

const bot = useTestBot({ linked: ['maya'] });

type Element = {
  action_id?: string;
  value?: string;
  text?: { text: string };
  confirm?: { text: { type: string; text: string }; confirm: { text: string } };
};
type Block = { type: string; block_id?: string; text?: { text: string }; elements?: Element[] };

/** A machine's card blocks in a list or Home: its summary section and its actions. */
function rowOf(blocks: unknown, machineId: string): { summary: string; actions: Element[] } {
  const all = blocks as Block[];
  const at = all.findIndex((block) => machineIdFromBlockId(block.block_id ?? '') === machineId);
  if (at < 0) throw new Error(`no card of ${machineId}`);
  const summary = all
    .slice(0, at)
    .reverse()
    .find((block) => block.type === 'section');
  return { summary: summary?.text?.text ?? '', actions: all[at]?.elements ?? [] };
}

const askOf = (actions: Element[]) => actions.find((element) => element.action_id === ActionId.requestPower);

// First: Sam has not linked a key yet (the tests below link him).
describe('Ask the owner when the owner has not linked a key', () => {
  it.skipIf(onV1)('tells the asker whom and how to reach them, and sends nothing', async () => {
    const list = await command(bot, 'maya', 'list');
    const ask = askOf(rowOf(list.blocks, 'psorb004').actions);
    expect(ask?.confirm?.text.text).toContain('Ask Sam Rivera to start *sam-dev*?');
    const click = bot.requests.blockAction({
      actionId: ActionId.requestPower,
      value: ask?.value,
      blockId: 'machine_actions:psorb004',
      userId: MAYA,
      ephemeral: true,
    });
    const postsBefore = bot.slack.calls('chat.postMessage').length;
    await bot.send(click);
    const told = await bot.slack.waitForResponse(click.responseUrlId ?? '');
    expect(told.text).toContain(
      'The owner of sam-dev, Sam Rivera (sam.rivera@orbital.example), has not linked a Paperspace key here',
    );
    expect(told.text).toContain('Ask them to run `/ps login`');
    expect(bot.slack.calls('chat.postMessage').length).toBe(postsBefore);
  });
});

describe("a teammate's machine on a card", () => {
  it.skipIf(onV1)(
    "names the owner by Paperspace's name until they link a key here, then by their Slack mention",
    async () => {
      const before = await command(bot, 'maya', 'list');
      const samDev = rowOf(before.blocks, 'psorb004');
      expect(samDev.summary).toContain('sam-dev');
      expect(samDev.summary).toContain('owned by Sam Rivera');
      // Maya's own machine names no owner.
      expect(rowOf(before.blocks, 'psorb001').summary).not.toContain('owned by');

      await bot.link('sam');
      const after = await command(bot, 'maya', 'list');
      expect(rowOf(after.blocks, 'psorb004').summary).toContain(`owned by <@${SAM}>`);
      expect(rowOf(after.blocks, 'psorb003').summary).toContain(`owned by <@${SAM}>`);
      // Sam's list of his own machines says nothing of an owner; Maya's machine names her.
      const samSees = await command(bot, 'sam', 'list');
      expect(rowOf(samSees.blocks, 'psorb004').summary).not.toContain('owned by');
      expect(rowOf(samSees.blocks, 'psorb001').summary).toContain(`owned by <@${MAYA}>`);
    },
  );

  it.skipIf(onV1)('shows the owner on /ps show and on the App Home', async () => {
    await bot.link('sam');
    const shown = await command(bot, 'maya', 'show sam-desktop');
    expect(textOf(shown.blocks)).toContain(`*Owner*\\n<@${SAM}>`);

    await bot.send(bot.requests.event({ type: 'app_home_opened', user: MAYA, tab: 'home' }));
    const publish = await bot.slack.waitFor(
      (call) => call.method === 'views.publish' && call.args.user_id === MAYA,
    );
    const blocks = (publish.args.view as { blocks: unknown }).blocks;
    expect(rowOf(blocks, 'psorb005').summary).toContain(`owned by <@${SAM}>`);
  });

  it.runIf(onV1)('says "no owner yet" on API v1 where the bot recorded none, never a guess', async () => {
    const list = await command(bot, 'maya', 'list');
    expect(textOf(list.blocks)).not.toContain('owned by');
    expect(rowOf(list.blocks, 'psorb004').summary).toContain('no owner yet');
    const shown = await command(bot, 'maya', 'show sam-dev');
    expect(textOf(shown.blocks)).toContain('*Owner*\\nno owner yet');
  });
});

describe('Ask the owner on a card', () => {
  it.skipIf(onV1)('says what it asks, and its confirmation whom', async () => {
    await bot.link('sam');
    const list = await command(bot, 'maya', 'list');
    const stopAsk = askOf(rowOf(list.blocks, 'psorb003').actions);
    expect(stopAsk?.text?.text).toBe('Ask the owner to stop');
    expect(stopAsk?.confirm?.text.type).toBe('mrkdwn');
    expect(stopAsk?.confirm?.text.text).toContain(`Ask <@${SAM}> to stop *sam-desktop*?`);
    expect(stopAsk?.confirm?.confirm.text).toBe('Send request');
    expect(askOf(rowOf(list.blocks, 'psorb004').actions)?.text?.text).toBe('Ask the owner to start');
  });

  it.skipIf(onV1)(
    'sends the owner a DM naming who asks what of which machine, with Approve; the asker hears it went to them',
    async () => {
      await bot.link('sam');
      const shown = await command(bot, 'maya', 'show sam-dev');
      const ask = askOf((shown.blocks as Block[]).flatMap((block) => block.elements ?? []));
      const click = bot.requests.blockAction({
        actionId: ActionId.requestPower,
        value: ask?.value,
        blockId: 'machine_actions:psorb004',
        userId: MAYA,
        ephemeral: true,
      });
      await bot.send(click);
      const toSam = await bot.slack.waitFor(
        (call: ApiCall) =>
          call.method === 'chat.postMessage' &&
          call.args.channel === SAM &&
          textOf(call.args.blocks).includes('sam-dev'),
      );
      expect(toSam.args.text).toBe(`🙋 <@${MAYA}> asks you to start your machine *sam-dev*.`);
      expect(textOf(toSam.args.blocks)).toContain(ActionId.requestApprove);
      const told = await bot.slack.waitForResponse(click.responseUrlId ?? '');
      expect(told.text).toContain(`Request sent to <@${SAM}>`);
      // Nothing was started with anyone's key: only the owner's approval does that.
      expect(bot.emulator.state.machine('psorb004')?.state).toBe('off');
    },
  );
});
