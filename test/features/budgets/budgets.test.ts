// Budgets end to end, in a real team: Maya administers the Orbital team (and the Slack workspace), Sam
// is a member, Ada an outsider with an individual account. The gate, the request it becomes, the
// approval that starts with Sam's own key, the refusal to a member, and the 50/80/100% alerts.
// Runs against both dialects.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { RecordedRequest } from '../../support/recording-proxy.js';
import { TEAM_ID, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { cardValue, eventually, textOf } from '../machines/machine-kit.js';

const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const CHANNEL = 'C0OPS';
const SAM_DEV = { id: 'psorb004', name: 'sam-dev' };

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now },
  linked: ['ada'],
  recordPaperspaceHeaders: true,
  // Linked with their access tokens, as a team using the legacy API does: Paperspace then tells who
  // administers the team.
  async prepare(started) {
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
    // Half a day of the month's running behind the team's machines, so it has spent something.
    clock.advance(12 * 3_600_000);
  },
});

async function command(text: string, userId: string) {
  const request = bot.requests.slashCommand({ text, userId, channelId: CHANNEL });
  await bot.send(request);
  return bot.slack.waitForResponse(request.responseUrlId ?? '');
}

type Block = { elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

const keyOf = (request: RecordedRequest) => {
  const header = request.headers['x-api-key'] ?? request.headers.authorization;
  return typeof header === 'string' ? header.replace(/^Bearer /, '') : undefined;
};

/** The start calls Paperspace received for sam-dev, with the key each carried. */
const startsOfSamDev = () =>
  bot.paperspaceRequests.filter(
    (request) => request.path.includes(SAM_DEV.id) && /\/start\b/.test(request.path),
  );

async function teamBudget() {
  const [budget] = await bot.store.budgets.list(TEAM_ID, await orbital());
  return budget;
}

async function orbital(): Promise<string> {
  const account = await bot.vault.account({ teamId: TEAM_ID, userId: MAYA });
  if (!account?.teamId) throw new Error('Maya has no team');
  return account.teamId;
}

describe('budgets', () => {
  it('refuses a member who sets a budget, naming who can, and changes nothing', async () => {
    const reply = await command('budget team $5', SAM);
    expect(reply.text).toContain('Only Slack workspace admins and owners can change budgets');
    expect(reply.text).toContain(`<@${MAYA}>`);
    expect(await bot.store.budgets.list(TEAM_ID, await orbital())).toEqual([]);
    // Everyone reads them.
    expect((await command('budget', SAM)).text).toContain('no budgets');
  });

  it('shows every budget with its spend and forecast, also as a chart whose amounts the text repeats', async () => {
    await command('budget team $100000', MAYA);
    await command(`budget <@${SAM}|sam> $300`, MAYA);
    const reply = await command('budget', SAM);
    type Chart = {
      type: string;
      title: string;
      chart: { series: { name: string; data: { label: string; value: number }[] }[] };
    };
    const chart = (reply.blocks as Chart[] | undefined)?.find((block) => block.type === 'data_visualization');
    expect(chart?.title).toMatch(/^Budgets · /);
    expect(chart?.chart.series.map((series) => series.name)).toEqual([
      'Spent',
      'Month-end forecast',
      'Budget',
    ]);
    // People are named as their Slack profile names them: a chart cannot draw a mention.
    const budgetsDrawn = chart?.chart.series[2]?.data ?? [];
    expect(budgetsDrawn.map((point) => point.label).sort()).toEqual(['Sam Rivera', 'Team']);
    expect(budgetsDrawn.find((point) => point.label === 'Sam Rivera')?.value).toBe(300);
    expect(reply.text).toContain('Sam Rivera $300.00');
    expect(reply.text).toContain('Team $100000.00');
  });

  it("turns a member's Start past the team's spent budget into a request, with no start until an administrator approves, then starts once with the member's key", async () => {
    const set = await command('budget team $0.01', MAYA);
    expect(set.text).toContain("Set the team's budget to $0.01 a month");
    const spent = (await teamBudget())?.spentCents ?? 0;
    expect(spent).toBeGreaterThan(1);

    const start = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue(SAM_DEV.id, SAM_DEV.name),
      userId: SAM,
      channelId: CHANNEL,
      message: { ts: '1600000000.000777' },
    });
    await bot.send(start);
    const told = await bot.slack.waitForResponse(start.responseUrlId ?? '');
    expect(told.text).toContain("The team's budget is spent");
    const toMaya = await bot.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel === MAYA &&
        textOf(call.args.blocks).includes('Approve once'),
    );
    expect(textOf(toMaya.args.blocks)).toContain('Approve and raise the budget by');
    expect(startsOfSamDev()).toHaveLength(0);
    expect(bot.emulator.state.machine(SAM_DEV.id)?.state).toBe('off');

    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestApproveRaise,
        value: buttonValue(toMaya.args.blocks, ActionId.requestApproveRaise),
        userId: MAYA,
        channelId: `D${MAYA}`,
        message: { ts: '1700000000.000100' },
      }),
    );
    await eventually(() => (startsOfSamDev().length > 0 ? true : undefined));
    const starts = startsOfSamDev();
    expect(starts).toHaveLength(1);
    expect(keyOf(starts[0] as RecordedRequest)).toBe(USERS.sam.apiKey);
    // Raised past what is spent: the next start is no request.
    await expect.poll(async () => (await teamBudget())?.amountCents).toBeGreaterThan(spent);
  });

  it('tells an administrator past a spent budget, and starts their machine', async () => {
    await command('budget team $0.01', MAYA);
    const teamBuild = { id: 'psorb002', name: 'team-build' };
    const start = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue(teamBuild.id, teamBuild.name),
      userId: MAYA,
      channelId: CHANNEL,
      message: { ts: '1600000000.000888' },
    });
    await bot.send(start);
    await expect
      .poll(() =>
        bot.slack
          .responses(start.responseUrlId ?? '')
          .map((post) => String(post.text))
          .join('\n'),
      )
      .toContain('as an administrator you are not stopped');
    const starts = bot.paperspaceRequests.filter(
      (request) => request.path.includes(teamBuild.id) && /\/start\b/.test(request.path),
    );
    expect(starts.map(keyOf)).toEqual([USERS.maya.apiKey]);
  });

  it('alerts at 50%, 80% and 100% once each, also after a restart, and at once when set below what is spent', async () => {
    await command('budget team $100000', MAYA);
    const spent = (await teamBudget())?.spentCents ?? 0;
    expect(spent).toBeGreaterThan(0);
    // The team's budget, with no approvals channel: its administrator's DM.
    const alerts = () =>
      bot.slack
        .calls('chat.postMessage')
        .filter((call) => call.args.channel === MAYA)
        .map((call) => String(call.args.text))
        .filter((text) => text.includes("team's budget has reached"));
    // Amounts that put the counted spend at 55%, 85%, then past 100%.
    for (const share of [55, 85, 110]) {
      const cents = Math.floor((spent * 100) / share);
      await command(`budget team $${(cents / 100).toFixed(2)}`, MAYA);
      await bot.scheduler.tick();
      await bot.scheduler.tick();
    }
    await expect.poll(() => alerts().length).toBe(3);
    expect(alerts().map((text) => /reached (\d+)%/.exec(text)?.[1])).toEqual(['50', '80', '100']);

    await bot.restart();
    await bot.scheduler.tick();
    await bot.scheduler.tick();
    expect(alerts()).toHaveLength(3);
  });
});
