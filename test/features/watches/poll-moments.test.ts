// With the real scheduler's timers, a tick does not poll everyone at once: each person's machines are
// listed at their own moment of the interval, the same moment every interval, and a scheduler that
// stops drops the moments still to come instead of waiting for them.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { phaseOf } from '../../../src/scheduler/phase.js';
import type { SchedulerTimers } from '../../../src/scheduler/scheduler.js';
import {
  messageText,
  POLL_INTERVAL_MS,
  type SchedulerHarness,
  startSchedulerHarness,
} from '../../scheduler/harness.js';
import { type HandSpreadTimer, handSpreadTimer } from '../../support/hand-spread-timer.js';
import { TEAM_ID, USERS } from '../../support/test-bot.js';

const START = 1_700_000_000_000;
/** How long a poll's work may take to show, on a shared machine under load: the wait ends as soon as it shows. */
const SETTLES = { timeout: 10_000 };

let h: SchedulerHarness;
let wall: HandSpreadTimer;
let fire: () => Promise<void>;

beforeEach(async () => {
  wall = handSpreadTimer(START);
  let run: (() => Promise<void>) | undefined;
  const timers: SchedulerTimers = {
    every(_ms, callback) {
      run = callback;
      return () => {
        run = undefined;
      };
    },
    spread: wall,
  };
  fire = () => {
    if (run === undefined) throw new Error('the scheduler has not started its timer');
    return run();
  };
  h = await startSchedulerHarness({ timers });
  await h.link('ada');
  await h.link('sam');
});
afterEach(async () => {
  h.emulator.state.releaseKey(USERS.ada.apiKey);
  await h.close();
});

const MACHINES = {
  ada: { id: 'psada003', name: 'ada-render', channel: 'C0ADA' },
  sam: { id: 'psorb004', name: 'sam-dev', channel: 'C0SAM' },
} as const;

const startAndWatch = (name: 'ada' | 'sam') =>
  h.startAndWatch(name, MACHINES[name], { channel: MACHINES[name].channel, targetState: 'serviceready' });

/** A person's moment: how far into each interval their machines are listed. */
const momentOf = (name: 'ada' | 'sam') => phaseOf(`${TEAM_ID}/${USERS[name].slackId}`, POLL_INTERVAL_MS);

const listCalls = (name: 'ada' | 'sam') =>
  h.emulator.state
    .requests()
    .filter(
      (request) => request.path.endsWith('/getMachines') && request.userId === USERS[name].emulatorUserId,
    ).length;

const cardUpdates = (name: 'ada' | 'sam') =>
  h.slack.calls('chat.update').filter((call) => call.args.channel === MACHINES[name].channel).length;

const repliesIn = (channel: string) =>
  h.slack.calls('chat.postMessage').filter((call) => call.args.channel === channel);

describe("each person's poll at a moment of their own", () => {
  it('lists nobody at the tick; each person at their moment, and again an interval later, with the completion posted', async () => {
    await startAndWatch('ada');
    await startAndWatch('sam');
    const [early, late] =
      momentOf('ada') < momentOf('sam') ? (['ada', 'sam'] as const) : (['sam', 'ada'] as const);
    // These people's moments are well into the interval, so the tick itself lists no one.
    expect(momentOf(early)).toBeGreaterThan(POLL_INTERVAL_MS / 100);
    expect(momentOf(late) - momentOf(early)).toBeGreaterThan(POLL_INTERVAL_MS / 100);

    await fire();
    expect(listCalls('ada') + listCalls('sam')).toBe(0);

    wall.advanceTo(START + momentOf(early));
    await vi.waitFor(() => expect(listCalls(early)).toBe(1), SETTLES);
    expect(listCalls(late)).toBe(0);
    wall.advanceTo(START + momentOf(late));
    await vi.waitFor(() => expect(listCalls(late)).toBe(1), SETTLES);
    // Each poll ends by drawing its card again; one still under way at the next interval is skipped
    // there (a person is never polled twice at once), which is not what this test is about.
    await vi.waitFor(() => expect(cardUpdates(early) * cardUpdates(late)).toBeGreaterThan(0), SETTLES);

    // Next interval: the machines got there; each person is listed at the same moment of it.
    h.clock.advance(POLL_INTERVAL_MS);
    wall.advanceTo(START + POLL_INTERVAL_MS);
    await fire();
    expect(listCalls(early) + listCalls(late)).toBe(2);
    wall.advanceTo(START + POLL_INTERVAL_MS + momentOf(early));
    await vi.waitFor(() => expect(repliesIn(MACHINES[early].channel)).toHaveLength(1), SETTLES);
    expect(listCalls(late)).toBe(1);
    wall.advanceTo(START + POLL_INTERVAL_MS + momentOf(late));
    await vi.waitFor(() => expect(repliesIn(MACHINES[late].channel)).toHaveLength(1), SETTLES);
    expect(messageText(repliesIn(MACHINES[late].channel)[0]?.args ?? {})).toContain(MACHINES[late].name);
    expect(listCalls('ada')).toBe(2);
    expect(listCalls('sam')).toBe(2);
  });

  it('a person whose requests hang delays no one: the next interval lists the others at their moments and posts their completion', async () => {
    await startAndWatch('ada');
    await startAndWatch('sam');
    h.emulator.state.hangKey(USERS.ada.apiKey);

    await fire();
    wall.advanceTo(START + POLL_INTERVAL_MS);
    await vi.waitFor(() => expect(listCalls('sam')).toBe(1), SETTLES);
    expect(h.emulator.state.heldRequests()).toBe(1);
    // Sam's poll ends by drawing his card again; one still under way at the next interval is skipped.
    await vi.waitFor(() => expect(cardUpdates('sam')).toBeGreaterThan(0), SETTLES);

    // Sam's machine got there; Ada's first list still hangs, unanswered.
    h.clock.advance(POLL_INTERVAL_MS);
    await fire();
    wall.advanceTo(START + POLL_INTERVAL_MS + momentOf('sam'));
    await vi.waitFor(() => expect(repliesIn(MACHINES.sam.channel)).toHaveLength(1), SETTLES);
    wall.advanceTo(START + 2 * POLL_INTERVAL_MS);
    // Ada was skipped at her moment, not listed again on top of the hung call.
    expect(h.emulator.state.heldRequests()).toBe(1);
    expect(repliesIn(MACHINES.ada.channel)).toHaveLength(0);
  });

  it('lists everyone at once on an explicit tick (a test, the sandbox clock), which wants its work done now', async () => {
    await startAndWatch('ada');
    await startAndWatch('sam');
    h.clock.advance(POLL_INTERVAL_MS);

    await h.scheduler.tick();
    expect(listCalls('ada')).toBe(1);
    expect(listCalls('sam')).toBe(1);
    expect(repliesIn(MACHINES.ada.channel)).toHaveLength(1);
    expect(repliesIn(MACHINES.sam.channel)).toHaveLength(1);
    expect(wall.pending).toBe(0);
  });

  it('lists everyone at the tick when the timers have no spread (a test firing ticks by hand)', async () => {
    let run: (() => Promise<void>) | undefined;
    const byHand = await startSchedulerHarness({
      timers: {
        every(_ms, callback) {
          run = callback;
          return () => undefined;
        },
      },
    });
    try {
      await byHand.link('ada');
      await byHand.link('sam');
      for (const name of ['ada', 'sam'] as const) {
        await byHand.startAndWatch(name, MACHINES[name], {
          channel: MACHINES[name].channel,
          targetState: 'serviceready',
        });
      }
      await run?.();
      const listed = () =>
        byHand.emulator.state.requests().filter((request) => request.path.endsWith('/getMachines')).length;
      await vi.waitFor(() => expect(listed()).toBe(2), SETTLES);
    } finally {
      await byHand.close();
    }
  });

  it('stops without waiting for the moments still to come, and lists no one after it stopped', async () => {
    await startAndWatch('ada');
    await startAndWatch('sam');
    await fire();
    expect(wall.pending).toBeGreaterThan(0);

    // Resolves though the wall clock never reaches anyone's moment.
    await h.scheduler.stop();
    expect(wall.pending).toBe(0);
    wall.advanceTo(START + 2 * POLL_INTERVAL_MS);
    expect(listCalls('ada') + listCalls('sam')).toBe(0);
  });
});
