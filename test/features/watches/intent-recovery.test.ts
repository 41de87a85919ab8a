// A power request whose fate its replica never recorded (it died, or lost its database, after storing
// the request's watch as its intent): after a grace, the bot asks Paperspace whether it went out. A
// machine on its way is followed to the end; a machine that never moved means the request did not
// happen, and the person is told so in a sentence naming it.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INTENT_GRACE_MS, intentVerdict } from '../../../src/features/watches/intent-recovery.js';
import { createPaperspaceClient } from '../../../src/paperspace/client.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { startTestBot, type TestBot, USERS } from '../../support/test-bot.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';
let bot: TestBot;

beforeAll(async () => {
  bot = await startTestBot({ now: clock.now, emulator: { now: clock.now, transitionMs: 2000 } });
  await bot.link('ada');
});
afterAll(async () => {
  await bot.close();
});

function spareMachine(state: 'off' | 'ready') {
  const [id] = bot.emulator.state.addMachines(1, {
    owner: USERS.ada.emulatorUserId,
    state,
    namePrefix: 'lost-',
  });
  const machine = bot.emulator.state.machine(id ?? '');
  if (machine === undefined) throw new Error('the emulator did not add a machine');
  return machine;
}

/** The replies in the channel naming the machine, after `from` posts. */
const repliesAbout = (name: string, from = 0) =>
  bot.slack
    .calls('chat.postMessage')
    .slice(from)
    .map((call) => String(call.args.text))
    .filter((text) => text.includes(`*${name}*`) && text.includes(`<@${ADA}>`));

/** Ticks the scheduler once the intents are past their grace, and then while the watches run. */
async function pastGrace() {
  clock.advance(INTENT_GRACE_MS + 1000);
  for (let tick = 0; tick < 4; tick++) {
    await bot.scheduler.tick();
    clock.advance(5000);
  }
}

describe('a power request its replica never finished recording', () => {
  it('a start Paperspace failed (500) and never acted on: the person is told it did not happen', async () => {
    const machine = spareMachine('off');
    const path = `${bot.dialect === 'v1' ? '/v1' : ''}/machines/${machine.id}/start`;
    // The client retries a start (safe to repeat): every try fails, so whether it landed is unknown.
    bot.emulator.state.failNextRequests({ count: 10, status: 500, path });
    const request = bot.requests.slashCommand({
      text: `start ${machine.name}`,
      userId: ADA,
      channelId: CHANNEL,
    });
    await bot.send(request);
    // The client's retries wait out their backoff first.
    await bot.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 20_000 });
    const [intent] = await bot.store.watches.listActive({ machineId: machine.id });
    expect(intent?.pendingSince).not.toBeNull();

    // Not polled, and not settled, while a slow request could still be on its way.
    await bot.scheduler.tick();
    expect(await bot.store.watches.listActive({ machineId: machine.id })).toHaveLength(1);

    const posted = bot.slack.calls('chat.postMessage').length;
    await pastGrace();
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('off');
    expect(repliesAbout(machine.name, posted)).toEqual([
      `<@${ADA}> ⚠️ Your start of *${machine.name}* did not happen: I lost it before Paperspace took it, ` +
        `and the machine is still ⚫ Off. \`/ps start ${machine.name}\` asks again.`,
    ]);
    expect(await bot.store.watches.listActive({ machineId: machine.id })).toEqual([]);
  });

  it('a start that went out before its replica died is followed to the end, with one completion', async () => {
    const machine = spareMachine('off');
    const now = clock.now();
    // What a replica leaves when it dies between the call and recording it: the intent, and a machine moving.
    await bot.store.watches.create({
      teamId: bot.slack.teamId,
      userId: ADA,
      machineId: machine.id,
      machineName: machine.name,
      // The emulator's stock machines are headless: a boot ends in serviceready.
      targetState: 'serviceready',
      channel: CHANNEL,
      lastState: 'off',
      operation: 'start',
      pendingSince: now,
      createdAt: now,
      deadlineAt: now + 30 * 60_000,
    });
    const apiUrl = `${bot.emulator.url}${bot.dialect === 'v1' ? '/v1' : ''}`;
    await createPaperspaceClient({
      apiKey: USERS.ada.apiKey,
      baseUrl: apiUrl,
      graphqlUrl: bot.emulator.graphqlUrl,
      now: clock.now,
    }).machines.start(machine.id);

    const posted = bot.slack.calls('chat.postMessage').length;
    await pastGrace();
    const replies = repliesAbout(machine.name, posted);
    expect(replies).toHaveLength(1);
    expect(replies[0]).toMatch(new RegExp(`^<@${ADA}> \\*${machine.name}\\* is .*Service ready`));
  });

  it('a stop whose machine is still up did not happen; one whose machine is stopping or off did', () => {
    const stop = { operation: 'stop', createdAt: Date.UTC(2026, 0, 5, 9) };
    expect(intentVerdict(stop, { state: 'ready', events: [] })).toEqual({ sent: false });
    expect(intentVerdict(stop, { state: 'stopping', events: [] })).toEqual({ sent: true, eventId: null });
    expect(intentVerdict(stop, { state: 'off', events: [] })).toEqual({ sent: true, eventId: null });
    // v1's event log proves a start that failed at once, though the machine is off again.
    const event = {
      name: 'start',
      state: 'error',
      handle: 'ev-9',
      errorMsg: 'no capacity',
      dtCreated: new Date(Date.UTC(2026, 0, 5, 9, 0, 2)).toISOString(),
    };
    const start = { operation: 'start', createdAt: Date.UTC(2026, 0, 5, 9) };
    expect(intentVerdict(start, { state: 'off', events: [event] })).toEqual({ sent: true, eventId: 'ev-9' });
    expect(intentVerdict(start, { state: 'off', events: [] })).toEqual({ sent: false });
  });
});
