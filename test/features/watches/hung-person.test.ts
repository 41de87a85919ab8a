// One person whose Paperspace requests hang must not hold up anyone else: each person's poll is a
// task of its own, and the timer's next tick polls everyone whose last poll has answered.
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { SchedulerObserver } from '../../../src/scheduler/job.js';
import type { SchedulerTimers } from '../../../src/scheduler/scheduler.js';
import {
  messageText,
  POLL_INTERVAL_MS,
  type SchedulerHarness,
  startSchedulerHarness,
} from '../../scheduler/harness.js';
import { TEAM_ID, USERS } from '../../support/test-bot.js';

/**
 * The poll interval's timer, fired by the test: each fire is one interval, as the real timer's, and
 * resolves when that tick has run its jobs (not when the polls it started have answered).
 */
function steppedTimers(): SchedulerTimers & { fire(): Promise<void> } {
  let run: (() => Promise<void>) | undefined;
  return {
    every(_ms, callback) {
      run = callback;
      return () => {
        run = undefined;
      };
    },
    fire() {
      if (run === undefined) throw new Error('the scheduler has not started its timer');
      return run();
    },
  };
}

let h: SchedulerHarness;
let timers: ReturnType<typeof steppedTimers>;
let skipped: number;

beforeEach(async () => {
  timers = steppedTimers();
  skipped = 0;
  const observer: SchedulerObserver = {
    reminderFired: () => undefined,
    failed: () => undefined,
    pollSkipped: () => {
      skipped += 1;
    },
  };
  h = await startSchedulerHarness({ timers, observer });
  await h.link('ada');
  await h.link('sam');
});
afterEach(async () => {
  h.emulator.state.releaseKey(USERS.ada.apiKey);
  await h.close();
});

const ADA_RENDER = { id: 'psada003', name: 'ada-render' };
const SAM_DEV = { id: 'psorb004', name: 'sam-dev' };

const startAndWatch = (
  name: 'ada' | 'sam',
  machine: { id: string; name: string },
  channel: string,
  harness: SchedulerHarness = h,
) => harness.startAndWatch(name, machine, { channel, targetState: 'serviceready' });

const repliesIn = (channel: string) =>
  h.slack.calls('chat.postMessage').filter((call) => call.args.channel === channel);
const cardUpdatesIn = (channel: string) =>
  h.slack.calls('chat.update').filter((call) => call.args.channel === channel);

/** Polls of the person that have ended, as the poller logs them (debug). */
const pollsEnded = (name: 'ada' | 'sam') =>
  h
    .logText()
    .split('\n')
    .filter((line) => line.includes('"polled a user"') && line.includes(`/${USERS[name].slackId}"`)).length;

describe('a person whose Paperspace requests hang', () => {
  it('delays no one else: the next interval polls the others and posts their completion', async () => {
    await startAndWatch('ada', ADA_RENDER, 'C0ADA');
    await startAndWatch('sam', SAM_DEV, 'C0SAM');
    h.emulator.state.hangKey(USERS.ada.apiKey);

    // First interval: Sam's machine is seen starting; Ada's list call hangs, unanswered.
    await timers.fire();
    await vi.waitFor(() => expect(pollsEnded('sam')).toBe(1));
    expect(cardUpdatesIn('C0SAM')).toHaveLength(1);
    expect(h.emulator.state.heldRequests()).toBe(1);

    // Sam's machine gets there; the next interval polls Sam although Ada's poll still hangs.
    h.clock.advance(POLL_INTERVAL_MS);
    await timers.fire();
    await vi.waitFor(() => expect(pollsEnded('sam')).toBe(2));
    await vi.waitFor(() => expect(repliesIn('C0SAM')).toHaveLength(1));
    const replies = repliesIn('C0SAM');
    expect(messageText(replies[0]?.args ?? {})).toContain(SAM_DEV.name);
    expect(messageText(replies[0]?.args ?? {})).toContain('Service ready');
    // Ada's first poll has not answered yet: nothing about her machine was posted.
    expect(pollsEnded('ada')).toBe(0);
    expect(h.emulator.state.heldRequests()).toBe(1);
    expect(repliesIn('C0ADA')).toHaveLength(0);
  });

  it('is skipped while their poll has not answered, counted every interval and logged once', async () => {
    // Ada alone: Sam's own poll (his machines' cost check) waits on timers this test does not fire,
    // and would be counted as unanswered too.
    await h.store.vaultEntries.delete({ teamId: TEAM_ID, userId: USERS.sam.slackId });
    await startAndWatch('ada', ADA_RENDER, 'C0ADA');
    h.emulator.state.hangKey(USERS.ada.apiKey);

    await timers.fire();
    await vi.waitFor(() => expect(h.emulator.state.heldRequests()).toBe(1));
    await timers.fire();
    await timers.fire();
    expect(skipped).toBe(2);
    // Skipped, not polled again: one list call held, not three stacked up.
    expect(h.emulator.state.heldRequests()).toBe(1);
    expect(pollsEnded('ada')).toBe(0);
    const warnings = h.logText().match(/skipping them until it does/g) ?? [];
    expect(warnings).toHaveLength(1);
    expect(h.logText()).not.toContain(USERS.ada.apiKey);
  });

  it('is cut off at the poll deadline, shorter than the interval, and says why in the log', async () => {
    await startAndWatch('ada', ADA_RENDER, 'C0ADA');
    h.emulator.state.hangKey(USERS.ada.apiKey);

    // tick() waits for what it started: the hung poll ends by its deadline, not the client's 30 s.
    await h.scheduler.tick();
    expect(h.emulator.state.heldRequests()).toBe(1);
    expect(pollsEnded('ada')).toBe(1);
    expect(h.logText()).toContain('could not list the machines of a user');
    expect(h.logText()).toMatch(/did not answer within 4 s while trying to check your machines/);
  });

  it('warns once when the timeouts start and once when a poll answers again, not every interval', async () => {
    await startAndWatch('ada', ADA_RENDER, 'C0ADA');
    h.emulator.state.hangKey(USERS.ada.apiKey);

    // Two intervals, each poll cut off at its deadline (a real 4 s each).
    await h.scheduler.tick();
    await h.scheduler.tick();
    expect(pollsEnded('ada')).toBe(2);
    const warned = () => h.logText().match(/could not list the machines of a user/g) ?? [];
    expect(warned()).toHaveLength(1);

    h.emulator.state.releaseKey(USERS.ada.apiKey);
    await h.scheduler.tick();
    await h.scheduler.tick();
    expect(warned()).toHaveLength(1);
    expect(h.logText().match(/could be listed again/g) ?? []).toHaveLength(1);
    expect(h.logText()).toMatch(/"failedPolls":2/);
  });
});

describe('more people than places under POLL_CONCURRENCY', () => {
  let small: SchedulerHarness;
  let smallTimers: ReturnType<typeof steppedTimers>;
  const reasons: string[] = [];

  beforeEach(async () => {
    reasons.length = 0;
    smallTimers = steppedTimers();
    small = await startSchedulerHarness({
      timers: smallTimers,
      // One place: Ada's hung poll holds it for its whole deadline, the worst a cap can do to Sam.
      pollConcurrency: 1,
      observer: {
        reminderFired: () => undefined,
        failed: () => undefined,
        pollSkipped: (reason) => {
          reasons.push(reason);
        },
      },
    });
    await small.link('ada');
    await small.link('sam');
  });
  afterEach(async () => {
    small.emulator.state.releaseKey(USERS.ada.apiKey);
    await small.close();
  });

  const polled = (name: 'ada' | 'sam') =>
    small
      .logText()
      .split('\n')
      .filter((line) => line.includes('"polled a user"') && line.includes(`/${USERS[name].slackId}"`)).length;

  it("gives its place back once the person's list is in: Ada's card update slow in Slack holds up no one's list", async () => {
    // Answered only after most of the poll's 4 s deadline: held through it, the place would come to Sam
    // too late for his list (under a tenth of the interval left), and he would be dropped.
    small.slack.script('chat.update', { channel: 'C0ADA', delayMs: 3_800 });
    await startAndWatch('ada', ADA_RENDER, 'C0ADA', small);
    await startAndWatch('sam', SAM_DEV, 'C0SAM', small);

    // Interval 1: Ada (first in order) takes the one place; her list shows the machine starting, and
    // the update of her card is slow to answer.
    await smallTimers.fire();
    await vi.waitFor(() =>
      expect(small.slack.calls('chat.update').map((call) => call.args.channel)).toContain('C0ADA'),
    );
    // Her poll still waits for Slack, yet Sam's list took the place, and his card moved too.
    await vi.waitFor(() => expect(polled('sam')).toBe(1));
    expect(polled('ada')).toBe(0);
    expect(small.slack.calls('chat.update').map((call) => call.args.channel)).toEqual(['C0ADA', 'C0SAM']);
    await vi.waitFor(() => expect(polled('ada')).toBe(1), { timeout: 10_000 });
    expect(reasons).toEqual([]);
  }, 30_000);

  it('drops a poll still waiting for a place at its deadline instead of running it late, and polls that person first next interval', async () => {
    await startAndWatch('ada', ADA_RENDER, 'C0ADA', small);
    await startAndWatch('sam', SAM_DEV, 'C0SAM', small);
    small.emulator.state.hangKey(USERS.ada.apiKey);

    // Interval 1: Ada (first in order) takes the one place and hangs; Sam waits for it.
    await smallTimers.fire();
    await vi.waitFor(() => expect(small.emulator.state.heldRequests()).toBe(1));
    // Ada's poll is cut off at its deadline (a real 4 s); Sam's, still waiting then, is dropped, not run
    // after it into the next interval.
    await vi.waitFor(() => expect(polled('ada')).toBe(1), { timeout: 10_000 });
    await vi.waitFor(() => expect(reasons).toEqual(['no_slot']));
    expect(polled('sam')).toBe(0);

    // Interval 2: Sam's machine got there; Sam, dropped last interval, goes before Ada and is answered.
    small.clock.advance(POLL_INTERVAL_MS);
    await smallTimers.fire();
    await vi.waitFor(() =>
      expect(
        small.slack.calls('chat.postMessage').filter((call) => call.args.channel === 'C0SAM'),
      ).toHaveLength(1),
    );
    // Logged as the poll ends, just after it handed the reply on: once, in interval 2.
    await vi.waitFor(() => expect(polled('sam')).toBe(1));
    expect(small.logText()).toContain('raise POLL_CONCURRENCY');
    const reply = small.slack.calls('chat.postMessage').find((call) => call.args.channel === 'C0SAM');
    expect(messageText(reply?.args ?? {})).toContain(SAM_DEV.name);
  }, 30_000);
});
