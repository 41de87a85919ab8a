import type { BlockAction, ButtonAction } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { ackFirst, createFollowUpQueue } from '../../src/slack/acks-first.js';
import { appWithoutTransport, deliverClick } from '../support/app-without-transport.js';

/** One turn of the event loop: resolves in the next check phase, as a request's I/O callbacks would. */
const nextTurn = () => new Promise<void>((resolve) => setImmediate(resolve));

describe('createFollowUpQueue', () => {
  it('holds follow-ups while requests keep being acked and lets them go on, oldest first, once none is', async () => {
    const queue = createFollowUpQueue();
    const order: string[] = [];
    const followUps = ['first', 'second'].map((name) => queue.turn().then(() => order.push(name)));
    for (let turn = 0; turn < 5; turn += 1) {
      queue.acked();
      order.push(`ack ${turn}`);
      await nextTurn();
    }
    await Promise.all(followUps);
    expect(order).toEqual(['ack 0', 'ack 1', 'ack 2', 'ack 3', 'ack 4', 'first', 'second']);
    expect(queue.waiting()).toBe(0);
  });

  it('lets a follow-up go on after maxWaitMs even while acks keep coming', async () => {
    let clock = 0;
    const queue = createFollowUpQueue({ maxWaitMs: 250, now: () => clock });
    const order: string[] = [];
    const followUp = queue.turn().then(() => order.push('follow-up'));
    for (let turn = 0; turn < 6; turn += 1) {
      queue.acked();
      order.push(`ack at ${clock}`);
      await nextTurn();
      clock += 100;
    }
    await followUp;
    // Waiting since 0, it is overdue on the first turn that starts at 300 ms or later.
    expect(order).toEqual([
      'ack at 0',
      'ack at 100',
      'ack at 200',
      'ack at 300',
      'follow-up',
      'ack at 400',
      'ack at 500',
    ]);
  });

  it('lets a lone request go on at once: a turn later', async () => {
    const queue = createFollowUpQueue();
    queue.acked();
    let done = false;
    const followUp = queue.turn().then(() => {
      done = true;
    });
    await nextTurn();
    await nextTurn();
    expect(done).toBe(true);
    await followUp;
  });
});

/** Registers a listener that acks, then records its follow-up; `click(n)` delivers click n. */
function recordingApp(withAckFirst: boolean) {
  const app = appWithoutTransport();
  if (withAckFirst) ackFirst(app);
  const order: string[] = [];
  app.action<BlockAction<ButtonAction>>('go', async ({ ack, action }) => {
    await ack();
    order.push(`follow-up ${action.value}`);
  });
  const click = (id: number) =>
    deliverClick(app, { actionId: 'go', value: String(id) }, async () => {
      order.push(`ack ${id}`);
    });
  return { order, click };
}

describe('ackFirst', () => {
  it('acks the clicks that arrive while others are under way before any of them goes on', async () => {
    const { order, click } = recordingApp(true);
    // Three clicks on three turns of the loop, as a burst reaches the server.
    const done = [click(1)];
    await nextTurn();
    done.push(click(2));
    await nextTurn();
    done.push(click(3));
    await Promise.all(done);
    expect(order).toEqual(['ack 1', 'ack 2', 'ack 3', 'follow-up 1', 'follow-up 2', 'follow-up 3']);
  });

  it('without it, the first click goes on before the later ones are acked (what the queue prevents)', async () => {
    const { order, click } = recordingApp(false);
    const done = [click(1)];
    await nextTurn();
    done.push(click(2));
    await Promise.all(done);
    expect(order).toEqual(['ack 1', 'follow-up 1', 'ack 2', 'follow-up 2']);
  });
});
