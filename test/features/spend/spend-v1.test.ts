// /ps spend on Paperspace v1, whose machines name no owner: each machine counts for its owner by the
// owner rule (the person the bot created it for, who created it through the bot, who claimed it or was
// assigned it), and the rest are listed as having no owner yet, with Assign for an administrator and
// This is mine for a member. A member's total is their own machines, as v1's session says they
// administer nothing.
import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { createdOnApproval } from '../approvals/approved-create.js';
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

type Element = { action_id?: string; value?: string };
type Block = { type: string; text?: { text?: string }; elements?: Element[]; accessory?: Element };

async function command(text: string, userId: string) {
  const request = bot.requests.slashCommand({ text, userId, channelId: CHANNEL });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

/** Sam asks for a machine (v1 lets only administrators create), and Maya approves it with her key. */
const createdFor = (name: string) =>
  createdOnApproval(bot, {
    requester: SAM,
    approver: MAYA,
    channelId: CHANNEL,
    create: `machineName=${name} region=ny2 machineType=C4 size=50 templateId=t04azgph`,
  });

/** The button on the row of `name` (a section with the button as its accessory). */
function rowButton(blocks: unknown, name: string): Element | undefined {
  return ((blocks ?? []) as Block[]).find((block) => block.text?.text?.startsWith(name))?.accessory;
}

/** The section of one owner: their heading and machines, up to the next owner's. */
function lineOf(text: string, heading: string): string {
  const from = text.indexOf(`*${heading}*:`);
  if (from < 0) return '';
  const rest = text.slice(from + heading.length + 3);
  const next = rest.search(/\*(<@U0[A-Z]+>|No owner yet)\*:/);
  return next < 0 ? rest : rest.slice(0, next);
}

describe('/ps spend on v1', () => {
  it("counts each machine for its owner by the rule: a member's own includes what was made for him, what he claimed and what he was assigned", async () => {
    await createdFor('sam-render');
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
    // Sam is given access to team-build in the console: access never makes anyone its owner.
    const teamBuild = bot.emulator.state.machineByName('team-build');
    const granted = await fetch(`${bot.emulator.v1Url}/machines/${teamBuild?.id}/accessors`, {
      method: 'POST',
      headers: { authorization: `Bearer ${USERS.maya.apiKey}`, 'content-type': 'application/json' },
      body: JSON.stringify({ userId: USERS.sam.emulatorUserId }),
    });
    expect(granted.status).toBe(200);
    const assigned = await command(`assign sam-cad <@${SAM}>`, MAYA);
    expect(assigned.text).toContain(`<@${SAM}>`);
    clock.advance(2 * 60 * 60 * 1000);

    // Before he claims anything, Sam sees the team's machines nobody owns, to claim his own.
    const before = await command('spend', SAM);
    const beforeText = textOf(before.blocks);
    expect(beforeText).toContain('Your spend');
    expect(lineOf(beforeText, `<@${SAM}>`)).toMatch(
      /\(2 machines\)[\s\S]*sam-(render|cad)[\s\S]*sam-(render|cad)/,
    );
    expect(beforeText).not.toContain('maya-box');
    const desktopClaim = rowButton(before.blocks, 'sam-desktop');
    expect(desktopClaim?.action_id).toBe(ActionId.machineClaim);
    expect(rowButton(before.blocks, 'team-build')?.action_id).toBe(ActionId.machineClaim);
    expect(beforeText).not.toContain(ActionId.spendAssign);

    const claim = bot.requests.blockAction({
      actionId: ActionId.machineClaim,
      value: desktopClaim?.value ?? '',
      userId: SAM,
      ephemeral: true,
    });
    await bot.send(claim);
    expect((await bot.slack.waitForResponse(claim.responseUrlId ?? '')).text).toContain('is yours now');

    const own = textOf((await command('spend', SAM)).blocks);
    const his = lineOf(own, `<@${SAM}>`);
    expect(his).toContain('(3 machines)');
    for (const name of ['sam-render', 'sam-cad', 'sam-desktop']) expect(his).toContain(name);
    const total = /\*Total: \$([\d.]+)\* so far for 3 machines/.exec(own);
    expect(total?.[1]).toBe(/\*<@U0SAM>\*: \*\$([\d.]+)\*/.exec(own)?.[1]);
    expect(lineOf(own, 'No owner yet')).toMatch(
      /maya-trainer[\s\S]*team-build|team-build[\s\S]*maya-trainer/,
    );
    expect(own).toContain("Only team administrators see the whole team's spend");

    const team = await command('spend', MAYA);
    const teamText = textOf(team.blocks);
    expect(teamText).toContain('Team spend');
    expect(lineOf(teamText, `<@${SAM}>`)).toContain('(3 machines)');
    expect(lineOf(teamText, `<@${MAYA}>`)).toMatch(/\(1 machine\)\\nmaya-box/);
    const unowned = lineOf(teamText, 'No owner yet');
    expect(unowned).toContain('(3 machines)');
    for (const name of ['maya-trainer', 'team-build', 'sam-dev']) {
      expect(unowned).toContain(name);
      expect(rowButton(team.blocks, name)?.action_id).toBe(ActionId.spendAssign);
    }
    expect(teamText).not.toContain(ActionId.machineClaim);
    expect(teamText).not.toContain('Not created through this bot');
  });

  it("moves a machine to the claimer's line in the team spend once he claims it", async () => {
    const own = await command('spend', SAM);
    const claim = bot.requests.blockAction({
      actionId: ActionId.machineClaim,
      value: rowButton(own.blocks, 'team-build')?.value ?? '',
      userId: SAM,
      ephemeral: true,
    });
    await bot.send(claim);
    await bot.slack.waitForResponse(claim.responseUrlId ?? '');
    const team = textOf((await command('spend', MAYA)).blocks);
    expect(lineOf(team, `<@${SAM}>`)).toContain('team-build');
    expect(lineOf(team, 'No owner yet')).not.toContain('team-build');
  });

  it("opens the card's assign form from a row's Assign, and the machine is the assignee's once it is sent", async () => {
    const team = await command('spend', MAYA);
    const assign = rowButton(team.blocks, 'sam-dev');
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.spendAssign,
        value: assign?.value ?? '',
        userId: MAYA,
        ephemeral: true,
      }),
    );
    const form = (await bot.slack.waitFor('views.update')).args.view as { callback_id?: string };
    expect(form.callback_id).toBe(CallbackId.assignMachine);
    expect(textOf(form)).toContain('sam-dev');
  });
});
