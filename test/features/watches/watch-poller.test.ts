import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { MAX_ACTIVE_WATCHES_PER_PERSON } from '../../../src/features/machines/machine-watcher.js';
import { GIVE_UP_AFTER_MS, RETRY_AFTER_MS } from '../../../src/features/watches/watch-outcomes.js';
import {
  messageText,
  POLL_INTERVAL_MS,
  type SchedulerHarness,
  startSchedulerHarness,
  TRANSITION_MS,
} from '../../scheduler/harness.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';

let h: SchedulerHarness;

beforeEach(async () => {
  h = await startSchedulerHarness();
  await h.link('ada');
});
afterEach(async () => {
  await h.close();
});

const CHANNEL = 'C0OPS';
const CARD_TS = '1700000000.000001';
const RENDER = { id: 'psada003', name: 'ada-render' };

const replies = () => h.slack.calls('chat.postMessage');
const cardUpdates = () =>
  h.slack.calls('chat.update').filter((call) => call.args.channel === CHANNEL && call.args.ts === CARD_TS);
const listCalls = () => h.emulator.state.requests().filter((entry) => entry.path === '/machines/getMachines');

const startAndWatch = (
  options: { timeoutMs?: number; messageTs?: string; targetState?: 'ready' | 'serviceready' } = {},
) =>
  h.startAndWatch('ada', RENDER, {
    channel: CHANNEL,
    targetState: options.targetState ?? 'ready',
    messageTs: options.messageTs ?? CARD_TS,
    ...(options.timeoutMs === undefined ? {} : { timeoutMs: options.timeoutMs }),
  });

function onlyReply(): ApiCall {
  const posted = replies();
  expect(posted).toHaveLength(1);
  return posted[0] as ApiCall;
}

describe('watch poller', () => {
  it('updates the card on each state change and posts one completion in its thread, with how long it took', async () => {
    const watch = await startAndWatch();

    await h.scheduler.tick();
    expect(cardUpdates()).toHaveLength(1);
    const starting = messageText(cardUpdates()[0]?.args ?? {});
    expect(starting).toContain('Starting');
    expect(starting).toContain('Waiting for');
    expect(replies()).toHaveLength(0);

    await h.advanceAndTick(POLL_INTERVAL_MS);
    const reply = onlyReply();
    expect(reply.args.channel).toBe(CHANNEL);
    expect(reply.args.thread_ts).toBe(CARD_TS);
    const text = messageText(reply.args);
    expect(text).toContain(`<@${USERS.ada.slackId}>`);
    expect(text).toContain('ada-render');
    expect(text).toContain('Ready');
    // The start finished TRANSITION_MS after it began; the list that showed it ready came at the next
    // tick, and the reply counts to that (no second call for the event log's exact moment).
    expect(text).toContain(`took ${POLL_INTERVAL_MS / 1000}s`);
    const finalCard = messageText(cardUpdates().at(-1)?.args ?? {});
    expect(finalCard).toContain('✅');
    expect(finalCard).toMatch(/Starting.*Ready/s);

    await h.advanceAndTick(POLL_INTERVAL_MS);
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(replies()).toHaveLength(1);
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'done', lastState: 'ready' });
  });

  it('ends a watch from the list alone after one interval its person was not polled in (dropped or skipped under load)', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    const mark = h.emulator.state.requests().length;
    // The next interval passes without a poll of Ada, and the one after polls her late in its tick:
    // the list finds the machine ready.
    h.clock.advance(POLL_INTERVAL_MS + 1_000);
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(messageText(onlyReply().args)).toContain(`took ${(2 * POLL_INTERVAL_MS + 1_000) / 1000}s`);
    // One list, and no show for the event log: the machine got there since the last look.
    expect(
      h.emulator.state
        .requests()
        .slice(mark)
        .map((entry) => entry.path),
    ).toEqual(['/machines/getMachines']);
  });

  it('counts a machine that went straight on to ready as done when waiting for serviceready', async () => {
    const watch = await startAndWatch({ targetState: 'serviceready' });
    // No tick until the machine is past serviceready: the poller only ever sees ready.
    await h.advanceAndTick(10 * TRANSITION_MS);
    expect(h.emulator.state.machine(RENDER.id)?.state).toBe('ready');
    expect(messageText(onlyReply().args)).toContain('Ready');
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'done', lastState: 'ready' });
  });

  it('gives up at the deadline, says so in the thread, and marks the card', async () => {
    // Never started: the machine stays off.
    const watch = await h.watcher.watch({
      user: h.user('ada'),
      machineId: RENDER.id,
      machineName: RENDER.name,
      targetState: 'ready',
      channel: CHANNEL,
      messageTs: CARD_TS,
      initialState: 'off',
      timeoutMs: 60_000,
    });
    for (let elapsed = 0; elapsed < 60_000; elapsed += POLL_INTERVAL_MS)
      await h.advanceAndTick(POLL_INTERVAL_MS);
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const text = messageText(onlyReply().args);
    expect(text).toContain('did not become');
    expect(text).toContain('within 1m');
    expect(text).toContain('/ps wait psada003 ready');
    expect(messageText(cardUpdates().at(-1)?.args ?? {})).toContain('⌛');
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'timed_out' });
  });

  it("reports a failed operation from the machine's event log instead of waiting for the deadline", async () => {
    h.emulator.state.failNextOperation(RENDER.id, 'The hypervisor did not answer');
    const watch = await startAndWatch();
    await h.scheduler.tick();
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const text = messageText(onlyReply().args);
    expect(text).toContain('The start of *ada-render* failed: The hypervisor did not answer');
    expect(text).toContain('Off');
    expect(messageText(cardUpdates().at(-1)?.args ?? {})).toContain('❌');
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'failed' });
  });

  it('notices a machine destroyed mid-watch and replaces its card', async () => {
    const watch = await startAndWatch();
    await h.scheduler.tick();
    await h.client('ada').machines.destroy(RENDER.id);
    await h.advanceAndTick(POLL_INTERVAL_MS);

    expect(messageText(onlyReply().args)).toContain('no longer exists');
    const card = cardUpdates().at(-1)?.args ?? {};
    expect(messageText(card)).toContain('no longer exists');
    expect(messageText(card)).not.toContain('machine_start');
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'gone' });
  });

  it('resumes after a restart mid-watch and still posts the completion once', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    await h.scheduler.stop();

    const restarted = h.createScheduler('replica-after-restart');
    await restarted.start();
    await h.advanceAndTick(POLL_INTERVAL_MS, restarted);
    await h.advanceAndTick(POLL_INTERVAL_MS, restarted);

    expect(messageText(onlyReply().args)).toContain('Ready');
  });

  it('lets only the replica holding a watch poll it, so two replicas post one completion', async () => {
    await startAndWatch();
    const second = h.createScheduler('replica-2');
    await second.start();
    await h.scheduler.tick();
    h.clock.advance(POLL_INTERVAL_MS);
    await Promise.all([h.scheduler.tick(), second.tick()]);
    await second.tick();

    onlyReply();
    expect(listCalls()).toHaveLength(2);
  });

  it("polls all of one user's watches with a single machine list per tick", async () => {
    const ids = h.emulator.state.addMachines(MAX_ACTIVE_WATCHES_PER_PERSON, {
      owner: USERS.ada.emulatorUserId,
      namePrefix: 'farm',
    });
    for (const [index, id] of ids.entries()) {
      await h.client('ada').machines.start(id);
      const cardTs = `1700000100.${String(index).padStart(6, '0')}`;
      // The card a Start click would have posted, which the watch updates.
      h.slack.showMessage(CHANNEL, cardTs);
      await h.watcher.watch({
        user: h.user('ada'),
        machineId: id,
        machineName: `farm-${index + 1}`,
        targetState: 'serviceready',
        channel: CHANNEL,
        messageTs: cardTs,
        initialState: 'off',
      });
    }

    const before = listCalls().length;
    await h.scheduler.tick();
    expect(listCalls().length - before).toBe(1);
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(listCalls().length - before).toBe(2);

    // The 50 completions share the channel's turns: a few messages, each machine in exactly one.
    const posted = replies().map((call) => String(call.args.text));
    expect(posted.length).toBeLessThanOrEqual(5);
    for (let index = 1; index <= MAX_ACTIVE_WATCHES_PER_PERSON; index++) {
      expect(posted.filter((text) => text.includes(`*farm-${index}*`))).toHaveLength(1);
    }
    expect(replies().every((call) => call.args.channel === CHANNEL)).toBe(true);
    expect(await h.store.watches.listActive()).toHaveLength(0);
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(listCalls().length - before).toBe(2);
  });

  it('polls every one of 5,100 active watches in one tick: no cap leaves any unpolled', async () => {
    // The scheduler once took at most 5,000 watches a tick, and the rest were never polled nor timed out.
    await h.link('sam');
    await h.link('maya');
    // Just past the old cap of 5,000, and no more: making 5,100 watches one by one takes seconds, and more
    // under load (hence the longer timeout).
    const perPerson = 1700;
    for (const name of ['ada', 'sam', 'maya'] as const) {
      const ids = h.emulator.state.addMachines(perPerson, {
        owner: USERS[name].emulatorUserId,
        state: 'starting',
        namePrefix: `${name}-farm`,
      });
      for (const [index, id] of ids.entries()) {
        // Stored directly: the watcher refuses a person's 51st active watch (MAX_ACTIVE_WATCHES_PER_PERSON),
        // and what is tested here is the poller, whatever the store holds.
        await h.store.watches.create({
          ...h.user(name),
          machineId: id,
          machineName: `${name}-farm-${index + 1}`,
          targetState: 'serviceready',
          channel: CHANNEL,
          createdAt: h.clock.now(),
          deadlineAt: h.clock.now() + 60 * 60_000,
          // Seen off when asked; every machine is starting by the tick, so a polled watch records it.
          lastState: 'off',
        });
      }
    }

    await h.scheduler.tick();

    const active = await h.store.watches.listActive();
    expect(active).toHaveLength(3 * perPerson);
    expect(active.filter((watch) => watch.lastState !== 'starting')).toEqual([]);
  }, 60_000);

  it('lists once per user per tick, each with their own key', async () => {
    await h.link('sam');
    await startAndWatch();
    await h.watcher.watch({
      user: h.user('sam'),
      machineId: 'psorb004',
      machineName: 'sam-dev',
      targetState: 'serviceready',
      channel: CHANNEL,
      initialState: 'off',
    });
    const before = listCalls().length;
    await h.scheduler.tick();
    expect(listCalls().length - before).toBe(2);
  });

  it('pauses a user answered with 429 and retries other failures at the next tick', async () => {
    await startAndWatch();
    h.emulator.state.failNextRequests({ count: 1, status: 429, path: '/machines/getMachines' });
    await h.scheduler.tick();
    expect(listCalls()).toHaveLength(1);

    // Without Retry-After the pause is twice the poll interval.
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(listCalls()).toHaveLength(1);

    h.emulator.state.failNextRequests({ count: 1, status: 500, path: '/machines/getMachines' });
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(listCalls()).toHaveLength(2);
    expect(replies()).toHaveLength(0);

    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(listCalls()).toHaveLength(3);
    expect(messageText(onlyReply().args)).toContain('Ready');
  });

  it('stops watching with a clear reply when the user unlinks their key', async () => {
    const watch = await startAndWatch();
    await h.vault.unlink(h.user('ada'));
    await h.scheduler.tick();

    expect(messageText(onlyReply().args)).toContain(
      'Stopped watching *ada-render*: your Paperspace key was unlinked',
    );
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'failed' });
    expect(listCalls()).toHaveLength(0);
  });

  it('still posts the completion when the card cannot be updated any more', async () => {
    await startAndWatch();
    h.slack.fail('chat.update', 'message_not_found', { times: 10 });
    await h.scheduler.tick();
    await h.advanceAndTick(POLL_INTERVAL_MS);

    expect(messageText(onlyReply().args)).toContain('Ready');
    expect(h.logText()).toContain('could not update the card of a watch');
  });

  it('replies in the channel when the thread of a deleted card refuses replies', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    h.slack.fail('chat.postMessage', 'thread_not_found');
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const posted = replies();
    expect(posted).toHaveLength(2);
    expect(posted[1]?.args.thread_ts).toBeUndefined();
    expect(messageText(posted[1]?.args ?? {})).toContain('Ready');
  });

  it('posts a completion whose fate Slack left unknown on a later tick, once it is due, and only once', async () => {
    const watch = await startAndWatch();
    await h.scheduler.tick();
    // internal_error may have posted (Slack says so): nothing is posted again at once, elsewhere either.
    h.slack.fail('chat.postMessage', 'internal_error');
    await h.advanceAndTick(POLL_INTERVAL_MS);
    expect(replies()).toHaveLength(1);
    expect(h.logText()).toContain('could not post the outcome of a watch; it stays due');
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'done' });

    await h.advanceAndTick(RETRY_AFTER_MS - 2 * POLL_INTERVAL_MS);
    expect(replies()).toHaveLength(1);
    await h.advanceAndTick(2 * POLL_INTERVAL_MS);
    expect(replies()).toHaveLength(2);
    const reply = replies()[1];
    expect(reply?.args.thread_ts).toBe(CARD_TS);
    expect(messageText(reply?.args ?? {})).toContain('Ready');

    await h.advanceAndTick(RETRY_AFTER_MS);
    await h.advanceAndTick(RETRY_AFTER_MS);
    expect(replies()).toHaveLength(2);
  });

  it('lets another replica post a completion the finishing one could not, once between them', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    h.slack.fail('chat.postMessage', 'internal_error');
    await h.advanceAndTick(POLL_INTERVAL_MS);
    const second = h.createScheduler('replica-2');
    await second.start();

    h.clock.advance(RETRY_AFTER_MS);
    await Promise.all([h.scheduler.tick(), second.tick()]);
    await Promise.all([h.scheduler.tick(), second.tick()]);
    expect(replies()).toHaveLength(2);
    expect(messageText(replies()[1]?.args ?? {})).toContain('Ready');
  });

  it('gives up on a completion Slack keeps refusing after an hour, and says so in the log', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    h.slack.fail('chat.postMessage', 'internal_error', { times: 1000 });
    await h.advanceAndTick(POLL_INTERVAL_MS);
    const finishedAt = h.clock.now();
    while (!h.logText().includes('gave up posting the outcome of a watch')) {
      expect(h.clock.now() - finishedAt).toBeLessThanOrEqual(GIVE_UP_AFTER_MS + RETRY_AFTER_MS);
      await h.advanceAndTick(RETRY_AFTER_MS);
    }
    const attempts = replies().length;
    expect(attempts).toBeLessThanOrEqual(2 * (1 + GIVE_UP_AFTER_MS / RETRY_AFTER_MS));
    await h.advanceAndTick(RETRY_AFTER_MS);
    expect(replies()).toHaveLength(attempts);
  });

  it.each([
    'channel_not_found',
    'is_archived',
    'restricted_action',
    'posting_to_general_channel_denied',
    'restricted_action_read_only_channel',
  ])("sends the completion to the person's DM when the channel refuses it with %s", async (error) => {
    const watch = await startAndWatch();
    await h.scheduler.tick();
    h.slack.script('chat.postMessage', { channel: CHANNEL, error, times: 2 });
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const dm = replies().at(-1);
    expect(dm?.args.channel).toBe(USERS.ada.slackId);
    expect(messageText(dm?.args ?? {})).toContain('Ready');
    expect(await h.store.watches.dueReports(h.clock.now() + RETRY_AFTER_MS, 10)).toEqual([]);
    expect(await h.store.watches.get(watch.id)).toMatchObject({ status: 'done' });
  });

  it('tells the person ephemerally in the channel when both the channel and the DM refuse the completion', async () => {
    await startAndWatch();
    await h.scheduler.tick();
    h.slack.script('chat.postMessage', { error: 'restricted_action', times: 3 });
    await h.advanceAndTick(POLL_INTERVAL_MS);

    const ephemeral = h.slack.calls('chat.postEphemeral').at(-1);
    expect(ephemeral?.args).toMatchObject({ channel: CHANNEL, user: USERS.ada.slackId });
    expect(messageText(ephemeral?.args ?? {})).toContain('Ready');
  });

  it('answers a second request about the same card once, for the newer request', async () => {
    await startAndWatch();
    await startAndWatch();
    await h.scheduler.tick();
    await h.advanceAndTick(POLL_INTERVAL_MS);

    onlyReply();
    expect(await h.store.watches.listActive()).toHaveLength(0);
  });
});
