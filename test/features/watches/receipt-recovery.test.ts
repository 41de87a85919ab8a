// Every acked start names its machine to its person again, even when the replica serving it dies after
// the ack and before the request reaches its intent. Here the replica "dies" while storing the intent
// (the write never answers, and the bot is restarted over the same database): after the grace the
// person is told once, in a sentence naming the machine, that nothing was done and how to ask again,
// and Paperspace was never asked. A request that runs its course leaves nothing behind and is told
// nothing more.
import { performance } from 'node:perf_hooks';
import { describe, expect, it } from 'vitest';
import { RECEIPT_GRACE_MS } from '../../../src/features/watches/receipt-recovery.js';
import { ActionId } from '../../../src/slack/ids.js';
import type { Store } from '../../../src/store/store.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, cardValue, eventually } from '../machines/machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';

/** While set, storing an intent never answers: the replica is stuck there until it is killed. */
let dying = false;
let stuck = 0;
/** While set, ending a receipt never answers: a create is stuck right before it is sent. */
let dyingBeforeCreate = false;
const dyingAtIntent = (store: Store): Store => ({
  ...store,
  receivedRequests: {
    ...store.receivedRequests,
    end(id) {
      if (!dyingBeforeCreate) return store.receivedRequests.end(id);
      stuck += 1;
      return new Promise(() => undefined);
    },
  },
  watches: {
    ...store.watches,
    create(watch, limit) {
      if (!dying || watch.pendingSince == null) return store.watches.create(watch, limit);
      stuck += 1;
      return new Promise(() => undefined);
    },
  },
});

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada'],
  wrapStore: dyingAtIntent,
  // The stuck request would otherwise hold the restart for the bot's whole drain.
  shutdownGraceMs: 200,
});

const spareMachine = (state: 'off' | 'ready' = 'off') =>
  addSpareMachine(bot, { prefix: 'acked-', state, owner: USERS.ada.emulatorUserId });

/** What ada was shown about `name`, wherever: ephemeral, in her DM, or in the channel. */
function toldAda(name: string): string[] {
  const texts = [
    ...bot.slack.calls('chat.postEphemeral').filter((call) => call.args.user === ADA),
    ...bot.slack.calls('chat.postMessage').filter((call) => call.args.channel === ADA),
  ].map((call) => String(call.args.text));
  return texts.filter((text) => text.includes(name));
}

/** Moves past the receipts' grace and ticks, twice: a second tick must tell no one again. */
async function pastGrace() {
  for (let round = 0; round < 2; round++) {
    clock.advance(RECEIPT_GRACE_MS + 1000);
    await bot.scheduler.tick();
  }
}

async function pendingReceipts() {
  return bot.store.receivedRequests.pending(Number.MAX_SAFE_INTEGER, 100);
}

describe('a start acked and lost before its intent', () => {
  it('tells the person once, naming the machine, that nothing was done, and sends nothing to Paperspace', async () => {
    const machine = spareMachine();
    dying = true;
    const request = bot.requests.slashCommand({
      text: `start ${machine.name}`,
      userId: ADA,
      channelId: CHANNEL,
    });
    const sent = performance.now();
    const ack = await bot.send(request);
    const ackMs = performance.now() - sent;
    expect(ack.status).toBe(200);
    expect(ackMs).toBeLessThan(3000);
    await eventually(() => (stuck > 0 ? true : undefined));
    expect((await pendingReceipts()).map(({ operation, subject }) => ({ operation, subject }))).toEqual([
      { operation: 'start', subject: machine.name },
    ]);

    // Killed while stuck, and started again over the same database.
    dying = false;
    await bot.restart();
    await bot.scheduler.tick();
    expect(toldAda(machine.name)).toEqual([]);

    await pastGrace();
    expect(toldAda(machine.name)).toEqual([
      `⚠️ I restarted before your start of *${machine.name}* reached Paperspace, so nothing was done to it. ` +
        `\`/ps start ${machine.name}\` asks again.`,
    ]);
    expect(bot.slack.calls('chat.postEphemeral').at(-1)?.args.channel).toBe(CHANNEL);
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('off');
    expect(await pendingReceipts()).toEqual([]);
  });

  it('a Stop clicked on a card and lost the same way: the clicker is told once, naming the machine', async () => {
    const machine = spareMachine('ready');
    dying = true;
    stuck = 0;
    const click = bot.requests.blockAction({
      actionId: ActionId.machineStop,
      value: cardValue(machine.id, machine.name),
      userId: ADA,
      channelId: CHANNEL,
      message: { ts: '1700000000.000100' },
    });
    expect((await bot.send(click)).status).toBe(200);
    await eventually(() => (stuck > 0 ? true : undefined));
    dying = false;
    await bot.restart();

    await pastGrace();
    expect(toldAda(machine.name)).toEqual([
      `⚠️ I restarted before your stop of *${machine.name}* reached Paperspace, so nothing was done to it. ` +
        `\`/ps stop ${machine.name}\` asks again.`,
    ]);
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('ready');
  });

  it('a start that runs its course leaves no receipt, and its person is told nothing more', async () => {
    const machine = spareMachine();
    await bot.send(
      bot.requests.slashCommand({ text: `start ${machine.name}`, userId: ADA, channelId: CHANNEL }),
    );
    await bot.slack.waitFor((call) => call.method === 'chat.postMessage' && call.args.channel === CHANNEL);
    await eventually(async () => ((await pendingReceipts()).length === 0 ? true : undefined));

    await pastGrace();
    expect(bot.slack.calls('chat.postEphemeral')).toEqual([]);
    expect(toldAda(machine.name)).toEqual([]);
  });

  it('a start refused before its intent, or sent unwatched, leaves no receipt either', async () => {
    const machine = spareMachine();
    await bot.send(
      bot.requests.slashCommand({ text: 'start no-such-machine', userId: ADA, channelId: CHANNEL }),
    );
    await bot.send(
      bot.requests.slashCommand({ text: `start ${machine.name} --no-wait`, userId: ADA, channelId: CHANNEL }),
    );
    await bot.slack.waitFor((call) => call.method === 'chat.postMessage' && call.args.channel === CHANNEL);
    await eventually(async () => ((await pendingReceipts()).length === 0 ? true : undefined));

    await pastGrace();
    expect(bot.slack.calls('chat.postEphemeral')).toEqual([]);
    expect(toldAda('restarted')).toEqual([]);
  });

  it('an inline create lost before it was sent: the person is told no machine was made, and none was', async () => {
    const billing = bot.dialect === 'v1' ? '' : ' billingType=hourly';
    dyingBeforeCreate = true;
    stuck = 0;
    const request = bot.requests.slashCommand({
      text: `create machineName=acked-new region=CA1 machineType=C4 size=50${billing} templateId=t04azgph`,
      userId: ADA,
      channelId: CHANNEL,
    });
    expect((await bot.send(request)).status).toBe(200);
    await eventually(() => (stuck > 0 ? true : undefined));
    dyingBeforeCreate = false;
    await bot.restart();

    await pastGrace();
    expect(toldAda('acked-new')).toEqual([
      '⚠️ I restarted before your create of *acked-new* reached Paperspace, so no machine was made. ' +
        'Type your `/ps create` again, or `/ps create` alone for the form.',
    ]);
    expect(bot.emulator.state.machineByName('acked-new')).toBeUndefined();
  });

  it('an inline create that runs its course leaves no receipt, and the form stores none', async () => {
    const billing = bot.dialect === 'v1' ? '' : ' billingType=hourly';
    await bot.send(
      bot.requests.slashCommand({
        text: `create machineName=acked-made region=CA1 machineType=C4 size=50${billing} templateId=t04azgph`,
        userId: ADA,
        channelId: CHANNEL,
      }),
    );
    await eventually(() => bot.emulator.state.machineByName('acked-made'));
    await bot.send(bot.requests.slashCommand({ text: 'create', userId: ADA, channelId: CHANNEL }));
    await bot.slack.waitFor('views.open');
    await eventually(async () => ((await pendingReceipts()).length === 0 ? true : undefined));
    await pastGrace();
    expect(toldAda('restarted')).toEqual([]);
  });
});
