import { describe, expect, it } from 'vitest';
import { StepCallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, eventually } from '../machines/machine-kit.js';

const clock = createFakeClock();
const ADA = USERS.ada.slackId;

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  linked: ['ada', 'sam'],
  async prepare(started) {
    const request = started.requests.slashCommand({ text: 'steps on', userId: ADA });
    await started.send(request);
    await started.slack.waitForResponse(request.responseUrlId ?? '');
  },
});

/** Sends the function_executed event of a run `by` started into the bot and answers its execution id. */
async function startStep(inputs: Record<string, unknown>, by: string = ADA): Promise<string> {
  const event = bot.slack.functions.execute({ callbackId: StepCallbackId.waitForState, inputs, by });
  expect((await bot.send(bot.requests.event({ ...event }))).status).toBe(200);
  return event.function_execution_id;
}

const executionOf = (id: string) => bot.slack.functions.execution(id);
const ended = (id: string) =>
  eventually(() => {
    const execution = executionOf(id);
    return execution?.state === 'running' ? undefined : execution;
  });

/** Starts a machine of Ada's as the console would, behind the bot's back. */
async function startInConsole(machineId: string) {
  const response = await fetch(`${bot.emulator.url}/machines/${machineId}/start`, {
    method: 'POST',
    headers: { 'x-api-key': USERS.ada.apiKey },
  });
  expect(response.ok).toBe(true);
}

describe('the Wait until a machine reaches a state step', () => {
  it('completes after a restart of the bot, with the state reached and the public IP', async () => {
    const machine = addSpareMachine(bot, { prefix: 'wait-restart-', state: 'off' });
    await startInConsole(machine.id);
    const id = await startStep({
      machine: machine.name,
      state: 'serviceready',
      timeout_minutes: 10,
    });
    await eventually(async () =>
      (await bot.store.watches.listActive({ machineId: machine.id })).length ? true : undefined,
    );
    expect(executionOf(id)).toEqual({ state: 'running' });

    await bot.restart();
    clock.advance(5000);
    await bot.scheduler.tick();

    const result = await ended(id);
    const reached = bot.emulator.state.machine(machine.id);
    expect(result).toEqual({
      state: 'completed',
      outputs: { state: reached?.state, public_ip: reached?.publicIpAddress ?? '' },
    });
    expect(['serviceready', 'ready']).toContain(reached?.state);
    // The step ends the run; nothing is posted in a conversation.
    expect(bot.slack.calls('chat.postMessage')).toEqual([]);
  });

  it('fails with a message when the machine does not get there before the timeout', async () => {
    const machine = addSpareMachine(bot, { prefix: 'wait-timeout-', state: 'off' });
    const id = await startStep({
      machine: machine.name,
      state: 'serviceready',
      timeout_minutes: 1,
    });
    await eventually(async () =>
      (await bot.store.watches.listActive({ machineId: machine.id })).length ? true : undefined,
    );
    clock.advance(61_000);
    await bot.scheduler.tick();
    const result = await ended(id);
    expect(result.state === 'failed' && result.error).toContain(
      `${machine.name} did not reach serviceready before the step's timeout (it was off)`,
    );
  });

  it('completes at once for a machine already in the state, without a watch', async () => {
    const machine = addSpareMachine(bot, { prefix: 'wait-there-', state: 'off' });
    const id = await startStep({ machine: machine.id, state: 'off' });
    expect(await ended(id)).toMatchObject({ state: 'completed', outputs: { state: 'off' } });
    expect(await bot.store.watches.listActive({ machineId: machine.id })).toEqual([]);
  });

  it('fails at once for a state the machine can never reach, and for a person who has not turned steps on', async () => {
    const headless = await startStep({ machine: 'ada-cpu-box', state: 'ready' });
    const never = await ended(headless);
    expect(never.state === 'failed' && never.error).toContain('headless Linux machine');
    const samMachine = addSpareMachine(bot, {
      prefix: 'wait-sam-',
      state: 'off',
      owner: USERS.sam.emulatorUserId,
    });
    const sam = await startStep({ machine: samMachine.name, state: 'off' }, USERS.sam.slackId);
    const refused = await ended(sam);
    expect(refused.state === 'failed' && refused.error).toContain('/ps steps on');
    expect(await bot.store.watches.listActive({ machineId: samMachine.id })).toEqual([]);
  });
});
