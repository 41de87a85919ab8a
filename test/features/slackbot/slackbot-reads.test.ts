// Slackbot's read tools: run at once with the caller's own key, answering that person alone, in words
// and in blocks; and every refusal that comes before Paperspace (no identity, another workspace, no
// linked key, a bad parameter, too many calls) answered in a sentence, with no Paperspace call.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CALLS_PER_MINUTE } from '../../../src/features/slackbot/call-limits.js';
import { assertFitsSlack } from '../../support/fits-slack.js';
import { connectSlackbot, resultText, type SlackbotClient } from '../../support/slackbot-client.js';
import { SIGNING_SECRET, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

// Sam's key is not linked here: he is the team member who never typed /ps login.
const bot = useTestBot({ linked: ['ada', 'maya'] });
let slackbot: SlackbotClient;
beforeAll(async () => {
  slackbot = await connectSlackbot(bot.url, SIGNING_SECRET);
});
afterAll(async () => {
  await slackbot.close();
});

const as = (name: keyof typeof USERS, teamId = 'T0FAKE') => ({
  user_id: USERS[name].slackId,
  team_id: teamId,
});

type Block = { type: string; elements?: { type: string; url?: string }[]; accessory?: { type: string } };

function blocksOf(result: { _meta?: Record<string, unknown> }): Block[] {
  const slack = result._meta?.slack as { blocks?: Block[] } | undefined;
  return slack?.blocks ?? [];
}

describe("Slackbot's read tools", () => {
  it("lists the caller's machines only, made with the caller's key, in words and in blocks without buttons", async () => {
    const mark = bot.emulator.state.requests().length;
    const result = await slackbot.call('list_machines', {}, as('ada'));

    const text = resultText(result);
    expect(result.isError).toBeUndefined();
    for (const name of ['ada-workstation', 'ada-cpu-box', 'ada-render']) expect(text).toContain(name);
    for (const name of ['maya-trainer', 'sam-desktop', 'team-build']) expect(text).not.toContain(name);
    const calls = bot.emulator.state.requests().slice(mark);
    expect(calls.length).toBeGreaterThan(0);
    expect(new Set(calls.map((call) => call.userId))).toEqual(new Set([USERS.ada.emulatorUserId]));

    const blocks = blocksOf(result);
    expect(blocks.length).toBeGreaterThan(0);
    assertFitsSlack({ blocks, text });
    // Clicks inside Slackbot's answer would not reach the bot: no buttons, no menus; the bot asks itself.
    const interactive = blocks.filter(
      (block) =>
        (block.type === 'actions' && block.elements?.some((element) => element.url === undefined)) ||
        (block.accessory !== undefined && block.accessory.type !== 'image'),
    );
    expect(interactive).toEqual([]);
    // Nothing was posted in Slack: the answer is the tool's result.
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
    expect(bot.slack.calls('chat.postEphemeral')).toEqual([]);
  });

  it("keeps a long answer's blocks within a message's budget and says there is more", async () => {
    bot.emulator.state.addMachines(120, {
      owner: USERS.maya.emulatorUserId,
      namePrefix: 'fleet-node-with-a-long-name-',
    });
    const result = await slackbot.call('spend', {}, as('maya'));
    const blocks = blocksOf(result);
    assertFitsSlack({ blocks, text: resultText(result) });
    const listed = await slackbot.call('list_machines', {}, as('maya'));
    assertFitsSlack({ blocks: blocksOf(listed), text: resultText(listed) });
  });

  it('reads filters as /ps list reads them: a region code in any case', async () => {
    const text = resultText(await slackbot.call('list_machines', { filters: { region: 'ny2' } }, as('ada')));
    expect(text).toContain('ada-cpu-box');
    expect(text).not.toContain('ada-workstation');
  });

  it('answers the other reads with the figures they show in Slack', async () => {
    const shown = resultText(await slackbot.call('show_machine', { machine: 'ada-workstation' }, as('ada')));
    expect(shown).toContain('ada-workstation');
    expect(shown).toContain('P4000');

    const usage = resultText(await slackbot.call('machine_usage', { machine: 'ada-render' }, as('ada')));
    expect(usage).toContain('ada-render');

    const availability = await slackbot.call(
      'machine_availability',
      { region: 'East Coast (NY2)' },
      as('ada'),
    );
    expect(availability.isError).toBeUndefined();
    expect(resultText(availability)).toContain('NY2');

    const templates = await slackbot.call('list_templates', {}, as('ada'));
    expect(templates.isError).toBeUndefined();
    expect(resultText(templates).length).toBeGreaterThan(20);

    const spend = await slackbot.call('spend', {}, as('maya'));
    expect(spend.isError).toBeUndefined();
    expect(resultText(spend)).toMatch(/\$\d/);

    const requests = await slackbot.call('my_requests', {}, as('ada'));
    expect(requests.isError).toBeUndefined();
    expect(resultText(requests)).not.toBe('');
  });

  it('names a machine the caller cannot see, without guessing', async () => {
    const result = await slackbot.call('show_machine', { machine: 'maya-trainer' }, as('ada'));
    expect(resultText(result)).toMatch(/maya-trainer/);
    expect(resultText(result)).not.toMatch(/\(40\d\)|psorb001|stack/i);
  });

  it('tells a person with no linked key to log in, and makes no Paperspace call', async () => {
    const mark = bot.emulator.state.requests().length;
    const result = await slackbot.call('list_machines', {}, as('sam'));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toContain('/ps login');
    expect(bot.emulator.state.requests().length).toBe(mark);
  });

  it("tells a known user id under another workspace's team that the app is not installed there", async () => {
    const mark = bot.emulator.state.requests().length;
    const result = await slackbot.call('list_machines', {}, as('ada', 'T0ELSEWHERE'));
    expect(result.isError).toBe(true);
    expect(resultText(result)).toMatch(/not installed in this Slack workspace/);
    expect(resultText(result)).not.toContain('ada-workstation');
    expect(bot.emulator.state.requests().length).toBe(mark);
  });

  it('refuses a call that names nobody, and one with a bad parameter, in a sentence', async () => {
    const mark = bot.emulator.state.requests().length;
    const anonymous = await slackbot.call('list_machines', {}, undefined);
    expect(anonymous.isError).toBe(true);
    expect(resultText(anonymous)).toMatch(/can't tell who is asking/);

    const badState = await slackbot.call(
      'wait_for_machine',
      { machine: 'ada-render', state: 'asleep' },
      as('ada'),
    );
    expect(badState.isError).toBe(true);
    expect(resultText(badState)).toMatch(/^The parameter state: /);
    expect(bot.emulator.state.requests().length).toBe(mark);
  });

  it('audits every call with the tool and the person, a refusal with what they were told', async () => {
    await slackbot.call('my_requests', {}, as('maya'));
    const [latest] = await bot.store.audit.list({ teamId: 'T0FAKE', userId: USERS.maya.slackId, limit: 1 });
    expect(latest).toMatchObject({ action: 'slackbot.my_requests', outcome: 'ok' });

    await slackbot.call('show_machine', {}, as('sam'));
    const [refused] = await bot.store.audit.list({ teamId: 'T0FAKE', userId: USERS.sam.slackId, limit: 1 });
    expect(refused).toMatchObject({ action: 'slackbot.show_machine', outcome: 'error' });
    expect(refused?.message).toContain('The parameter machine is missing.');
  });

  it('follows a machine for a wait, its card and its completion in the DM', async () => {
    const result = await slackbot.call(
      'wait_for_machine',
      { machine: 'ada-render', state: 'ready' },
      as('ada'),
    );
    expect(resultText(result)).toMatch(/I am following it/);
    const card = await bot.slack.waitFor('chat.postMessage');
    expect(card.args.channel).toBe(USERS.ada.slackId);
    expect(JSON.stringify(card.args.blocks)).toContain('ada-render');
    await expect.poll(() => bot.watchRequests.some((watch) => watch.machineId === 'psada003')).toBe(true);
  });

  it("pauses a person's calls after a minute's worth, and only that person's", async () => {
    const results = [];
    for (let call = 0; call <= CALLS_PER_MINUTE; call += 1)
      results.push(await slackbot.call('my_requests', {}, as('maya')));
    expect(results.at(-1)?.isError).toBe(true);
    expect(resultText(results.at(-1) ?? { content: [] })).toMatch(/try again in a minute/i);
    expect((await slackbot.call('my_requests', {}, as('ada'))).isError).toBeUndefined();
  });
});
