import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import {
  messageText,
  POLL_INTERVAL_MS,
  type SchedulerHarness,
  startSchedulerHarness,
} from '../../scheduler/harness.js';
import type { TestUserName } from '../../support/test-bot.js';
import { USERS } from '../../support/test-bot.js';

let h: SchedulerHarness;

beforeEach(async () => {
  h = await startSchedulerHarness();
});
afterEach(async () => {
  await h.close();
});

const HOUR_MS = 60 * 60_000;
const reminderPosts = () => h.slack.calls('chat.postMessage');

/** The harness clock starts on Wednesday 2024-05-15 at 09:00 UTC. */
async function remind(name: TestUserName, timezone: string, cron = '0 19 * * 1-5') {
  const reminder = await h.store.reminders.create({
    ...h.user(name),
    cron,
    timezone,
    channel: USERS[name].slackId,
    createdAt: h.clock.now(),
  });
  // A reminder made through any replica is scheduled at the next tick.
  await h.scheduler.tick();
  return reminder;
}

/** Moves the clock to `iso` and fires what is due. */
async function at(iso: string) {
  h.clock.set(Date.parse(iso));
  await h.cron.runDue();
}

describe('shutdown reminders', () => {
  it("fire at the user's local time with their running machines, each with Stop, Snooze and Keep running", async () => {
    await h.link('ada');
    await remind('ada', 'America/New_York');

    // 19:00 in New York is 23:00 UTC in May.
    await at('2024-05-15T22:59:00Z');
    expect(reminderPosts()).toHaveLength(0);
    await at('2024-05-15T23:00:00Z');

    const posts = reminderPosts();
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args.channel).toBe(USERS.ada.slackId);
    const text = messageText(posts[0]?.args ?? {});
    expect(text).toContain('ada-workstation');
    expect(text).not.toContain('ada-cpu-box');
    for (const actionId of [ActionId.reminderStop, ActionId.reminderSnooze, ActionId.reminderKeep]) {
      expect(text).toContain(actionId);
    }
  });

  it('fire again on the next weekday, not on the weekend', async () => {
    await h.link('ada');
    await remind('ada', 'Europe/Amsterdam');
    await at('2024-05-15T17:00:00Z');
    await at('2024-05-16T17:00:00Z');
    await at('2024-05-17T17:00:00Z');
    await at('2024-05-18T17:00:00Z');
    await at('2024-05-19T17:00:00Z');
    expect(reminderPosts()).toHaveLength(3);
    expect(h.cron.jobs()[0]?.nextAt).toBe(Date.parse('2024-05-20T17:00:00Z'));
  });

  it("list only the person's own machines, not their teammates'", async () => {
    await h.link('sam');
    await remind('sam', 'UTC');
    await at('2024-05-15T19:00:00Z');

    const text = messageText(reminderPosts()[0]?.args ?? {});
    expect(text).toContain('sam-desktop');
    expect(text).not.toContain('maya-trainer');
  });

  it('send nothing when nothing runs', async () => {
    await h.link('ada');
    await h.client('ada').machines.stop('psada001');
    await remind('ada', 'UTC');
    await at('2024-05-15T19:00:00Z');
    expect(reminderPosts()).toHaveLength(0);
  });

  it('are delivered once when several replicas fire the same occurrence', async () => {
    await h.link('ada');
    await remind('ada', 'UTC');
    const second = h.createScheduler('replica-2');
    await second.start();
    expect(h.cron.jobs()).toHaveLength(2);

    await at('2024-05-15T19:00:00Z');
    expect(reminderPosts()).toHaveLength(1);
  });

  it('stop firing once deleted, even before the scheduler notices', async () => {
    await h.link('ada');
    const reminder = await remind('ada', 'UTC');
    await h.store.reminders.delete(h.user('ada'), reminder.id);
    await at('2024-05-15T19:00:00Z');
    expect(reminderPosts()).toHaveLength(0);

    await h.scheduler.tick();
    expect(h.cron.jobs()).toHaveLength(0);
  });

  it('are scheduled again when the bot restarts', async () => {
    await h.link('ada');
    await remind('ada', 'UTC');
    await h.scheduler.stop();
    await h.scheduler.tick();
    expect(h.cron.jobs()).toHaveLength(0);

    const restarted = h.createScheduler('after-restart');
    await restarted.start();
    await at('2024-05-15T19:00:00Z');
    expect(reminderPosts()).toHaveLength(1);
  });

  it('tell the person when their key is no longer linked instead of going silent', async () => {
    await remind('ada', 'UTC');
    await at('2024-05-15T19:00:00Z');
    expect(messageText(reminderPosts()[0]?.args ?? {})).toContain('no Paperspace key is linked');
  });
});

describe('snoozed reminders', () => {
  const snooze = async (machineId: string) =>
    h.store.snoozes.snooze({
      ...h.user('ada'),
      machineId,
      machineName: null,
      reminderId: null,
      channel: 'D0ADA',
      fireAt: h.clock.now() + HOUR_MS,
      createdAt: h.clock.now(),
    });

  it('ask about that one machine again an hour later, once', async () => {
    await h.link('ada');
    await h.client('ada').machines.start('psada003');
    await snooze('psada001');

    await h.advanceAndTick(HOUR_MS - POLL_INTERVAL_MS);
    expect(reminderPosts()).toHaveLength(0);
    await h.advanceAndTick(POLL_INTERVAL_MS);
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const posts = reminderPosts();
    expect(posts).toHaveLength(1);
    expect(posts[0]?.args.channel).toBe('D0ADA');
    const text = messageText(posts[0]?.args ?? {});
    expect(text).toContain('ada-workstation');
    expect(text).not.toContain('ada-render');
  });

  it('stay quiet when the machine was stopped in the meantime', async () => {
    await h.link('ada');
    await snooze('psada001');
    await h.client('ada').machines.stop('psada001');
    await h.advanceAndTick(HOUR_MS);
    expect(reminderPosts()).toHaveLength(0);
  });
});

describe('shares', () => {
  it('are marked expired on their post once, when the delegation runs out', async () => {
    await h.link('ada');
    const createdAt = h.clock.now();
    await h.store.delegations.create({
      ...h.user('ada'),
      delegationId: '42',
      accessTokenId: 'tok-id-42',
      channel: 'C0OPS',
      messageTs: '1700000000.000042',
      machineIds: ['psada001'],
      createdAt,
      expiresAt: createdAt + 4 * HOUR_MS,
    });

    await h.advanceAndTick(4 * HOUR_MS - 1000);
    expect(h.slack.calls('chat.update')).toHaveLength(0);
    await h.advanceAndTick(1000);
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const updates = h.slack.calls('chat.update');
    expect(updates).toHaveLength(1);
    expect(updates[0]?.args).toMatchObject({ channel: 'C0OPS', ts: '1700000000.000042' });
    const text = messageText(updates[0]?.args ?? {});
    expect(text).toContain('expired');
    expect(text).toContain('ada-workstation');
  });
});
