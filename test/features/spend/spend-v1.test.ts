// /ps spend on Paperspace v1, whose machines name no owner: each machine's spend goes to the person
// the bot created it for (an approved request), else who created it through the bot, else the people
// v1 lists as its accessors, and the rest are labelled as not created through this bot. A member sees
// only their own, as v1's session says they administer nothing.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { eventually, textOf } from '../machines/machine-kit.js';

const clock = createFakeClock();
const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({
  dialect: 'v1',
  emulator: { now: clock.now },
  now: clock.now,
  linked: ['maya', 'sam'],
});

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

async function command(text: string, userId: string) {
  const request = bot.requests.slashCommand({ text, userId, channelId: CHANNEL });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Sam asks for a machine (v1 lets only administrators create), and Maya approves it with her key. */
async function createdOnApproval(name: string) {
  const offer = await command(
    `create machineName=${name} region=ny2 machineType=C4 size=50 templateId=t04azgph`,
    SAM,
  );
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestCreate,
      value: buttonValue(offer.blocks, ActionId.requestCreate),
      userId: SAM,
      channelId: CHANNEL,
    }),
  );
  const toMaya = await bot.slack.waitFor(
    (call) =>
      call.method === 'chat.postMessage' &&
      call.args.channel === MAYA &&
      textOf(call.args.blocks).includes(name),
  );
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestApprove,
      value: buttonValue(toMaya.args.blocks, ActionId.requestApprove),
      userId: MAYA,
      channelId: `D${MAYA}`,
      message: { ts: '1700000000.000100' },
    }),
  );
  return eventually(() => bot.emulator.state.machineByName(name));
}

describe('/ps spend on v1', () => {
  it('puts each machine under the person the bot knows it is for, and shows a member only theirs', async () => {
    await createdOnApproval('sam-render');
    // Maya creates one for herself through the bot.
    // Her card is posted in the channel, not answered through the response_url.
    await bot.send(
      bot.requests.slashCommand({
        text: 'create machineName=maya-box region=ny2 machineType=C4 size=50 templateId=t04azgph',
        userId: MAYA,
        channelId: CHANNEL,
      }),
    );
    await eventually(() => bot.emulator.state.machineByName('maya-box'));
    // Sam is given access to team-build in the console: the bot knows him only as its accessor.
    const teamBuild = bot.emulator.state.machineByName('team-build');
    const granted = await fetch(`${bot.emulator.v1Url}/machines/${teamBuild?.id}/accessors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${USERS.maya.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: USERS.sam.emulatorUserId }),
    });
    expect(granted.status).toBe(200);
    clock.advance(2 * 60 * 60 * 1000);

    const team = textOf((await command('spend', MAYA)).blocks);
    expect(team).toContain('Team spend');
    // The approver created sam-render, but for Sam: it is his, with team-build he has access to.
    expect(team).toMatch(/<@U0SAM>\*: \*\$[\d.]+\* \(2 machines\)/);
    const samSection = team.slice(team.indexOf('<@U0SAM>*'));
    expect(samSection.slice(0, samSection.indexOf('"}}'))).toMatch(
      /sam-render[\s\S]*team-build|team-build[\s\S]*sam-render/,
    );
    expect(team).toMatch(/<@U0MAYA>\*: \*\$[\d.]+\* \(1 machine\)\\nmaya-box/);
    // The seeded machines: nothing the bot knows says whose they are.
    expect(team).toMatch(/Not created through this bot\*: \*\$[\d.]+\* \(4 machines\)/);
    expect(team).not.toContain('Owner not reported by Paperspace');
    expect(team).not.toContain('Only team administrators');

    const own = textOf((await command('spend', SAM)).blocks);
    expect(own).toContain('Your spend');
    expect(own).toContain('sam-render');
    expect(own).toContain('team-build');
    for (const other of ['maya-box', 'maya-trainer', 'sam-desktop', 'Not created through this bot'])
      expect(own).not.toContain(other);
    expect(own).toContain("Only team administrators see the whole team's spend");
  });
});
