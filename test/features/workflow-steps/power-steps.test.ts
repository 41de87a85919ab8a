import { describe, expect, it } from 'vitest';
import { StepCallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, eventually, textOf } from '../machines/machine-kit.js';

// The emulator's clock stands still, so a started machine stays "starting" while we look.
const clock = createFakeClock();
const ADA = USERS.ada.slackId;
const SAM = USERS.sam.slackId;
/** Turned steps on, but never linked a Paperspace key. */
const NOKEY = 'U0NOKEY';

const bot = useTestBot({
  emulator: { now: clock.now },
  linked: ['ada', 'sam'],
  async prepare(started) {
    for (const userId of [ADA, NOKEY]) {
      const request = started.requests.slashCommand({ text: 'steps on', userId });
      await started.send(request);
      await started.slack.waitForResponse(request.responseUrlId ?? '');
    }
  },
});

/** Runs a step as a workflow would: Slack's function_executed event, signed, into the bot. */
async function runStep(callbackId: string, inputs: Record<string, unknown>) {
  const event = bot.slack.functions.execute({ callbackId, inputs });
  const response = await bot.send(bot.requests.event({ ...event }));
  expect(response.status).toBe(200);
  const ended = await eventually(() => {
    const execution = bot.slack.functions.execution(event.function_execution_id);
    return execution?.state === 'running' ? undefined : execution;
  });
  return { ended, event };
}

/** Paperspace calls made with this person's key so far. */
const callsBy = (emulatorUserId: string) =>
  bot.emulator.state.requests().filter((request) => request.userId === emulatorUserId).length;

describe('/ps steps', () => {
  it('says steps are off for someone who never turned them on, and turns them on and off', async () => {
    const ask = async (text: string) => {
      const request = bot.requests.slashCommand({ text, userId: SAM });
      await bot.send(request);
      return textOf(await bot.slack.waitForResponse(request.responseUrlId ?? ''));
    };
    expect(await ask('steps')).toContain('fail without touching Paperspace');
    expect(await ask('steps on')).toContain('act with your Paperspace key');
    expect(await bot.store.workflowSteps.enabled({ teamId: bot.slack.teamId, userId: SAM })).toBe(true);
    expect(await ask('steps off')).toContain('`/ps steps on` lets them');
    expect(await bot.store.workflowSteps.enabled({ teamId: bot.slack.teamId, userId: SAM })).toBe(false);
    const [record] = await bot.store.audit.list({ limit: 1 });
    expect(record).toMatchObject({ userId: SAM, action: 'workflow_steps.off', outcome: 'ok' });
  });
});

describe('the Start, Stop and Restart machine steps', () => {
  it('start a machine with the named person key and complete with its id, name and state', async () => {
    const machine = addSpareMachine(bot, { prefix: 'step-start-', state: 'off' });
    const { ended, event } = await runStep(StepCallbackId.startMachine, { machine: machine.name, user: ADA });
    expect(ended).toEqual({
      state: 'completed',
      outputs: { machine_id: machine.id, machine_name: machine.name, state: 'starting' },
    });
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('starting');
    const records = await bot.store.audit.list({ resourceId: machine.id, limit: 5 });
    expect(records.map((record) => record.action).sort()).toEqual(['machine.start', 'workflow_step.start']);
    const stepRecord = records.find((record) => record.action === 'workflow_step.start');
    expect(stepRecord).toMatchObject({ userId: ADA, outcome: 'ok' });
    expect(stepRecord?.message).toContain(event.workflow_execution_id);
  });

  it('stop a running machine, and complete for one already off without sending a stop', async () => {
    const running = addSpareMachine(bot, { prefix: 'step-stop-', state: 'ready' });
    const stopped = await runStep(StepCallbackId.stopMachine, { machine: running.id, user: ADA });
    expect(stopped.ended).toMatchObject({
      state: 'completed',
      outputs: { machine_id: running.id, state: 'stopping' },
    });

    const off = addSpareMachine(bot, { prefix: 'step-off-', state: 'off' });
    const before = bot.emulator.state.requests().length;
    const already = await runStep(StepCallbackId.stopMachine, { machine: off.name, user: ADA });
    expect(already.ended).toMatchObject({ state: 'completed', outputs: { state: 'off' } });
    const sent = bot.emulator.state.requests().slice(before);
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('restart a running machine, and fail with a sentence for one that is off', async () => {
    const running = addSpareMachine(bot, { prefix: 'step-restart-', state: 'ready' });
    const restarted = await runStep(StepCallbackId.restartMachine, { machine: running.name, user: ADA });
    expect(restarted.ended).toMatchObject({ state: 'completed', outputs: { machine_name: running.name } });
    expect(bot.emulator.state.machine(running.id)?.state).not.toBe('ready');

    const off = addSpareMachine(bot, { prefix: 'step-restart-off-', state: 'off' });
    const refused = await runStep(StepCallbackId.restartMachine, { machine: off.name, user: ADA });
    expect(refused.ended).toMatchObject({ state: 'failed' });
    expect(refused.ended.state === 'failed' && refused.ended.error).toContain('Start machine step');
  });

  it('fail naming the machine when the key sees none of that name', async () => {
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: 'no-such-box', user: ADA });
    expect(ended.state === 'failed' && ended.error).toContain('No machine called "no-such-box"');
  });

  it('fail without any Paperspace call for a person who has not turned steps on', async () => {
    const machine = addSpareMachine(bot, {
      prefix: 'step-sam-',
      state: 'off',
      owner: USERS.sam.emulatorUserId,
    });
    const before = callsBy(USERS.sam.emulatorUserId);
    const { ended, event } = await runStep(StepCallbackId.startMachine, { machine: machine.name, user: SAM });
    expect(ended.state === 'failed' && ended.error).toContain(
      'The person this step acts as has not allowed Paperspace steps',
    );
    expect(ended.state === 'failed' && ended.error).toContain('/ps steps on');
    expect(callsBy(USERS.sam.emulatorUserId)).toBe(before);
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('off');
    const [record] = await bot.store.audit.list({ resourceId: machine.name, limit: 1 });
    expect(record).toMatchObject({ userId: SAM, action: 'workflow_step.start', outcome: 'error' });
    expect(record?.message).toContain(event.workflow_execution_id);
  });

  it('fail without any Paperspace call for a person who turned steps on but linked no key', async () => {
    const machine = addSpareMachine(bot, { prefix: 'step-nokey-', state: 'off' });
    const before = bot.emulator.state.requests().length;
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: machine.name, user: NOKEY });
    expect(ended.state === 'failed' && ended.error).toContain(
      'The person this step acts as has no Paperspace key linked',
    );
    expect(bot.emulator.state.requests().length).toBe(before);
  });

  it('fail with what the builder typed shown as text: a machine called <!channel> notifies nobody', async () => {
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: '<!channel> & co', user: ADA });
    expect(ended.state).toBe('failed');
    const error = ended.state === 'failed' ? ended.error : '';
    expect(error).toContain('&lt;!channel&gt; &amp; co');
    expect(error).not.toContain('<!channel>');
  });

  it('fail asking for a person when the Act as input is missing', async () => {
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: 'ada-cpu-box' });
    expect(ended.state === 'failed' && ended.error).toContain('"Act as"');
  });
});
