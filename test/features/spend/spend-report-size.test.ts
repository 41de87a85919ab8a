// Reports of a real team at size, through signed requests into the real receiver, the strict fake Slack
// and the emulator: Sam, a member, owns 120 machines named with 50 characters (escapes included), which
// /ps spend pages across messages instead of falling back to text; and a report reads who is who (the
// Slack links and the recorded owners) once, however many machines and people the team has.
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock, type SeedInput } from '../../../tools/emulator/index.js';
import { assertFitsSlack } from '../../support/fits-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../machines/machine-kit.js';
import { orbitalTeammates, runningMachine, teammateId, withTeam } from './orbital-team-seed.js';

const clock = createFakeClock(Date.parse('2024-05-15T05:00:00Z'));
const SAMS_MACHINES = 120;
const TEAMMATES = 40;

/** 50 characters, with the characters that grow when escaped. */
const machineName = (index: number) =>
  `Sam <train> ${String(index).padStart(3, '0')} ${'&<>x'.repeat(20)}`.slice(0, 50);

function seed(): SeedInput {
  const teammates = orbitalTeammates(TEAMMATES, { withKeys: true });
  return withTeam(teammates, [
    ...Array.from({ length: SAMS_MACHINES }, (_, index) =>
      runningMachine(`pssam${String(index).padStart(3, '0')}`, machineName(index), 'u1sam'),
    ),
    ...teammates.map((mate, index) =>
      runningMachine(`psmate${String(index).padStart(3, '0')}`, `mate-${index}`, mate.id),
    ),
  ]);
}

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000, seed: seed() },
  prepare: async (started) => {
    await started.link('maya', { withAccessToken: true });
    await started.link('sam', { withAccessToken: true });
    // Half the teammates linked their keys too: the report names them by their Slack mention.
    for (let index = 0; index < TEAMMATES; index += 2) {
      await started.vault.link(
        { teamId: started.slack.teamId, userId: `U0MATE${index}` },
        {
          apiKey: `mate-key-${String(index).padStart(3, '0')}`,
          account: { userId: teammateId(index), email: `mate${index}@orbital.example`, teamId: 'te1orbit' },
        },
      );
    }
    clock.advance(3 * 3_600_000);
  },
});

afterEach(() => {
  vi.restoreAllMocks();
});

interface Reply {
  blocks?: unknown[];
  text?: string;
  replace_original?: boolean;
}

async function spend(userId: string): Promise<Reply> {
  const request = bot.requests.slashCommand({ text: 'spend', userId });
  await bot.send(request);
  return (await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 15_000 })) as Reply;
}

async function next(reply: Reply, userId: string): Promise<Reply | undefined> {
  const block = (reply.blocks ?? []).find(
    (candidate) => (candidate as { block_id?: string }).block_id === 'spend_page_next',
  ) as { elements?: { value?: string }[] } | undefined;
  const value = block?.elements?.[0]?.value;
  if (value === undefined) return undefined;
  const request = bot.requests.blockAction({ actionId: ActionId.spendPage, value, userId, ephemeral: true });
  await bot.send(request);
  return (await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 15_000 })) as Reply;
}

/** The machines a page lists, by the escaped name each line opens with. */
function machinesOn(reply: Reply): string[] {
  return [...textOf(reply.blocks).matchAll(/Sam &lt;train&gt; (\d{3}) /g)].map((match) => match[1] ?? '');
}

describe('a member who owns 120 machines with long names', () => {
  it('pages their own machines across messages that Slack takes, each machine on exactly one page', async () => {
    const first = await spend(USERS.sam.slackId);
    expect(first.blocks?.length ?? 0).toBeGreaterThan(0);
    assertFitsSlack({ blocks: first.blocks ?? [], text: first.text ?? '' });
    const pageLine = /Person 1 of 1 · page 1 of (\d+)/.exec(textOf(first.blocks));
    expect(pageLine).not.toBeNull();
    const pages = Number(pageLine?.[1]);
    expect(pages).toBeGreaterThan(1);
    expect(textOf(first.blocks)).toMatch(/…and \d+ more machines, \$[\d.,]+ together \(in the total above\)/);

    const seen = machinesOn(first);
    let reply = first;
    for (let page = 2; page <= pages; page += 1) {
      const shown = await next(reply, USERS.sam.slackId);
      if (shown === undefined) throw new Error(`page ${page - 1} has no Next`);
      assertFitsSlack({ blocks: shown.blocks ?? [], text: shown.text ?? '' });
      expect(textOf(shown.blocks)).toContain(`page ${page} of ${pages}`);
      expect(textOf(shown.blocks)).toContain('(continued)');
      seen.push(...machinesOn(shown));
      reply = shown;
    }
    expect(await next(reply, USERS.sam.slackId)).toBeUndefined();
    expect(seen).toHaveLength(SAMS_MACHINES);
    expect(new Set(seen).size).toBe(SAMS_MACHINES);
  });
});

describe('a report of the whole team', () => {
  it('reads the Slack links once, never every linked person, however many machines it counts', async () => {
    const linkedIn = vi.spyOn(bot.store.vaultEntries, 'linkedIn');
    const everyone = vi.spyOn(bot.store.vaultEntries, 'list');
    const recorded = vi.spyOn(bot.store.machineOwners, 'ownersOf');

    const reply = await spend(USERS.maya.slackId);
    const text = textOf(reply.blocks);
    expect(text).toContain('Team spend');
    const people = Number(/(?:People \d+–\d+|Person \d+) of (\d+) · page 1 of/.exec(text)?.[1]);
    expect(people).toBeGreaterThan(TEAMMATES);
    expect(linkedIn).toHaveBeenCalledTimes(1);
    expect(everyone).not.toHaveBeenCalled();
    expect(recorded.mock.calls.length).toBeLessThanOrEqual(1);
  });
});
