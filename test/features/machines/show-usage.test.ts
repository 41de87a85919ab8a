import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { cardValue, textOf } from './machine-kit.js';

// The bot and the emulator share one clock (15 May 2024), so "this month" is May 2024 for both.
const clock = createFakeClock();
const ADA = USERS.ada.slackId;

const bot = useTestBot({
  emulator: { now: clock.now },
  now: clock.now,
  linked: ['ada'],
  prepare: () => {
    clock.advance(3 * 60 * 60 * 1000);
  },
});

describe('/ps show', () => {
  it('shows the machine card to the asker alone, with its recent events and its buttons', async () => {
    const request = bot.requests.slashCommand({ text: 'show ada-workstation', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    const blocks = textOf(reply.blocks);
    expect(blocks).toContain('ada-workstation');
    expect(blocks).toContain('Ready');
    expect(blocks).toMatch(/Recent: create ✅ <!date\^\d+\^[^>]+> → start ✅/);
    expect(blocks).toContain(ActionId.machineStop);
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
  });

  it("shows the machine's own hourly rate, not a list price", async () => {
    const request = bot.requests.slashCommand({ text: 'show ada-cpu-box', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    // The contract's listing names only the plan; the card reads the rate from the machine's usage.
    expect(textOf(reply.blocks)).toContain('*Billing*\\n$0.036 / h');
    expect(textOf(reply.blocks)).not.toContain('list price');
  });

  it('shows a price on every row of /ps list without a Paperspace call per row', async () => {
    const before = bot.emulator.state.requests().length;
    const request = bot.requests.slashCommand({ text: 'list', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    const rows = textOf(reply.blocks);
    expect(rows).toContain('C4 · $0.036 / h');
    expect(rows).toContain('P5000 · $0.78 / h');
    // The contract lists no rate: its rows show the published price, said to be one and dated.
    if (bot.dialect === 'contract') expect(rows).toContain('$0.78 / h list price (May 2024)');
    else expect(rows).not.toContain('list price');
    const paths = bot.emulator.state
      .requests()
      .slice(before)
      .map((entry) => entry.path);
    expect(paths.filter((path) => /getUtilization/.test(path))).toEqual([]);
  });

  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "shows a member a teammate's machine with Ask the owner, and without Settings, Access or Destroy",
    async () => {
      await bot.link('sam');
      const request = bot.requests.slashCommand({ text: 'show maya-trainer', userId: USERS.sam.slackId });
      await bot.send(request);
      const blocks = textOf((await bot.slack.waitForResponse(request.responseUrlId ?? '')).blocks);
      expect(blocks).toContain('maya-trainer');
      expect(blocks).toContain(ActionId.requestPower);
      expect(blocks).not.toContain(ActionId.machineStop);
      expect(blocks).not.toContain(ActionId.machineOverflow);
    },
  );

  it('accepts the machine id, and a name typed in another case', async () => {
    for (const text of ['show psada002', 'show ADA-CPU-BOX']) {
      const request = bot.requests.slashCommand({ text, userId: ADA });
      await bot.send(request);
      const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
      expect(textOf(reply.blocks)).toContain('ada-cpu-box');
    }
  });

  it('says which names the key can see when no machine matches', async () => {
    const request = bot.requests.slashCommand({ text: 'show maya-trainer', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.text).toContain('No machine called "maya-trainer" is visible to your Paperspace key');
  });
});

describe('/ps usage and the Usage button', () => {
  it("shows this month's usage by default, to the asker alone", async () => {
    const request = bot.requests.slashCommand({ text: 'usage ada-workstation', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(textOf(reply.blocks)).toContain('Usage of ada-workstation · May 2024');
    // Seeded at the start of the clock and running since: three hours.
    expect(textOf(reply.blocks)).toContain('3 h 00 min');
    if (bot.dialect === 'contract') {
      const query = bot.emulator.state.requests().findLast((entry) => entry.path.endsWith('getUtilization'));
      expect(query?.query).toContain('billingMonth=2024-05');
    } else {
      // v1 has no usage meter: the time is rebuilt from the machine's events, and the reply says so.
      expect(textOf(reply.blocks)).toContain('Time used (estimated)');
      expect(textOf(reply.blocks)).toContain('estimated from the machine');
    }
  });

  it('shows the month asked for', async () => {
    const request = bot.requests.slashCommand({ text: 'usage ada-workstation 2024-04', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(textOf(reply.blocks)).toContain('April 2024');
    // The machine was created in May: April has no compute and no storage to charge.
    expect(textOf(reply.blocks)).toContain('*Estimated cost*\\n$0.00');
  });

  it('refuses a month that has not started, without asking Paperspace', async () => {
    const before = bot.emulator.state
      .requests()
      .filter((entry) => entry.path.endsWith('getUtilization')).length;
    const request = bot.requests.slashCommand({ text: 'usage ada-workstation 2024-06', userId: ADA });
    await bot.send(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain(
      '2024-06 has not started yet: usage is known for 2024-05 and earlier months.',
    );
    const after = bot.emulator.state
      .requests()
      .filter((entry) => entry.path.endsWith('getUtilization')).length;
    expect(after).toBe(before);
  });

  it("answers the card's Usage button ephemerally with this month's usage", async () => {
    const action = bot.requests.blockAction({
      actionId: ActionId.machineUsage,
      value: cardValue('psada001', 'ada-workstation'),
      userId: ADA,
    });
    await bot.send(action);
    const reply = await bot.slack.waitForResponse(action.responseUrlId ?? '');
    expect(reply.response_type).toBe('ephemeral');
    expect(reply.replace_original).toBe(false);
    expect(textOf(reply.blocks)).toContain('Usage of ada-workstation · May 2024');
  });
});
