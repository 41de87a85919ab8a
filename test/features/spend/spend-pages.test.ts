// /ps spend for a team of 200 people named with 50 characters (escapes included): each page fits one
// Slack message, Next and Previous page through the people, and every person is on exactly one page;
// `/ps spend page=N` opens the same page. Through signed requests into the real receiver, the strict
// fake Slack and the emulator.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock, DEMO_SEED, type SeedInput } from '../../../tools/emulator/index.js';
import { assertFitsSlack } from '../../support/fits-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../machines/machine-kit.js';

const clock = createFakeClock(Date.parse('2024-05-15T05:00:00Z'));
const PEOPLE = 200;
const MAYA = USERS.maya.slackId;

/** 50 characters, with the characters that grow when escaped. */
const personName = (index: number) =>
  `Mate ${String(index).padStart(3, '0')} ${'&<>x'.repeat(20)}`.slice(0, 50);

function bigTeamSeed(): SeedInput {
  const teammates = Array.from({ length: PEOPLE }, (_, index) => {
    const [firstname = '', ...rest] = personName(index).split(' ');
    return {
      id: `u1mate${String(index).padStart(3, '0')}`,
      email: `mate${index}@orbital.example`,
      firstname,
      lastname: rest.join(' '),
      team: 'te1orbit',
      role: 'member' as const,
    };
  });
  const machines = teammates.map((mate, index) => ({
    id: `psmate${String(index).padStart(3, '0')}`,
    name: `R&D <gpu> ${String(index).padStart(3, '0')} ${'&<>x'.repeat(20)}`.slice(0, 50),
    owner: mate.id,
    templateId: 't04azgph',
    machineType: 'C4' as const,
    region: 'East Coast (NY2)' as const,
    state: 'ready' as const,
  }));
  return {
    ...DEMO_SEED,
    users: [...(DEMO_SEED.users ?? []), ...teammates],
    machines: [...(DEMO_SEED.machines ?? []), ...machines],
  };
}

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000, seed: bigTeamSeed() },
  prepare: async (started) => {
    await started.link('maya', { withAccessToken: true });
    clock.advance(3 * 3_600_000);
  },
});

interface Reply {
  blocks?: unknown[];
  text?: string;
  replace_original?: boolean;
}

/** The people a page lists: each person's section opens with their name in bold and their total. */
function peopleOn(reply: Reply): string[] {
  const sections = (reply.blocks ?? []) as { type: string; text?: { text?: string } }[];
  return sections.flatMap((block) => {
    const heading = /^\*([^*\n]+)\*: \*\$[\d.,]+\*/.exec(
      block.type === 'section' ? (block.text?.text ?? '') : '',
    );
    return heading?.[1] === undefined ? [] : [heading[1]];
  });
}

/** The value of the page button with this block id, or undefined when the page has none. */
function pagerValue(reply: Reply, blockId: 'spend_page_next' | 'spend_page_prev'): string | undefined {
  const block = (reply.blocks ?? []).find(
    (candidate) => (candidate as { block_id?: string }).block_id === blockId,
  ) as { elements?: { action_id?: string; value?: string }[] } | undefined;
  const element = block?.elements?.[0];
  if (element === undefined) return undefined;
  expect(element.action_id).toBe(ActionId.spendPage);
  return element.value;
}

async function command(text: string): Promise<Reply> {
  const request = bot.requests.slashCommand({ text, userId: MAYA });
  await bot.send(request);
  // 200 machines' usage is read from the emulator first: more than the default 2 s on a busy machine.
  return (await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 15_000 })) as Reply;
}

async function click(value: string): Promise<Reply> {
  const request = bot.requests.blockAction({
    actionId: ActionId.spendPage,
    value,
    userId: MAYA,
    ephemeral: true,
  });
  await bot.send(request);
  return (await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 15_000 })) as Reply;
}

function deliverable(reply: Reply): void {
  assertFitsSlack({ blocks: reply.blocks ?? [], text: reply.text ?? '' });
}

describe('/ps spend for a team of 200 people', () => {
  it('pages through every person once with Next, each page fitting one message', async () => {
    const first = await command('spend');
    deliverable(first);
    const pageLine = /People 1–(\d+) of (\d+) · page 1 of (\d+)/.exec(textOf(first.blocks));
    expect(pageLine).not.toBeNull();
    const everyone = Number(pageLine?.[2]);
    const pages = Number(pageLine?.[3]);
    expect(everyone).toBeGreaterThanOrEqual(PEOPLE);
    expect(pages).toBeGreaterThan(1);
    expect(textOf(first.blocks)).toMatch(/…and \d+ more people, \$[\d.,]+ together \(in the total above\)/);
    expect(pagerValue(first, 'spend_page_prev')).toBeUndefined();

    const seen = [...peopleOn(first)];
    let reply = first;
    for (let page = 2; page <= pages; page += 1) {
      const next = pagerValue(reply, 'spend_page_next');
      expect(next, `page ${page - 1} has Next`).toBeDefined();
      reply = await click(next ?? '');
      expect(reply.replace_original).toBe(true);
      deliverable(reply);
      expect(textOf(reply.blocks)).toContain(`page ${page} of ${pages}`);
      seen.push(...peopleOn(reply));
    }
    expect(pagerValue(reply, 'spend_page_next')).toBeUndefined();
    expect(seen).toHaveLength(everyone);
    expect(new Set(seen).size).toBe(everyone);
    // The names are escaped, never cut inside an escape or passed raw.
    expect(seen.filter((name) => name.includes('&amp;&lt;&gt;x'))).toHaveLength(PEOPLE);
  });

  it('opens a page by number, and Previous goes back to the page before it', async () => {
    const first = await command('spend');
    const second = await command('spend page=2');
    deliverable(second);
    expect(textOf(second.blocks)).toMatch(/People \d+–\d+ of \d+ · page 2 of \d+/);
    const back = await click(pagerValue(second, 'spend_page_prev') ?? '');
    expect(peopleOn(back)).toEqual(peopleOn(first));
    const onSecond = peopleOn(second);
    expect(onSecond.length).toBeGreaterThan(0);
    expect(onSecond.some((name) => peopleOn(first).includes(name))).toBe(false);
  });

  it('says clearly, in the ack, when the page typed is not a number', async () => {
    const response = await bot.send(bot.requests.slashCommand({ text: 'spend page=two', userId: MAYA }));
    const body = JSON.stringify(response.body);
    expect(body).toContain('Invalid page \\"two\\"');
    expect(body).toContain('/ps spend [YYYY-MM] [page=N]');
  });
});
