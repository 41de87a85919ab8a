import { describe, expect, it } from 'vitest';
import { StepCallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { type ManifestStep, readManifestSteps } from '../../../tools/sandbox/manifest-steps.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, eventually, settle, textOf } from '../machines/machine-kit.js';
import { completionsOf } from './step-kit.js';

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

/**
 * Runs a step as a workflow would: Slack's function_executed event, signed, into the bot. `by` started
 * the workflow (or clicked its button): Slack sets the step's user context from them.
 */
async function runStep(
  callbackId: string,
  inputs: Record<string, unknown>,
  run: { by?: string; installedAs?: ManifestStep } = { by: ADA },
) {
  const event = bot.slack.functions.execute({ callbackId, inputs, ...run });
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
    const { ended, event } = await runStep(StepCallbackId.startMachine, { machine: machine.name });
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
    const stopped = await runStep(StepCallbackId.stopMachine, { machine: running.id });
    expect(stopped.ended).toMatchObject({
      state: 'completed',
      outputs: { machine_id: running.id, state: 'stopping' },
    });

    const off = addSpareMachine(bot, { prefix: 'step-off-', state: 'off' });
    const before = bot.emulator.state.requests().length;
    const already = await runStep(StepCallbackId.stopMachine, { machine: off.name });
    expect(already.ended).toMatchObject({ state: 'completed', outputs: { state: 'off' } });
    const sent = bot.emulator.state.requests().slice(before);
    expect(sent.filter((request) => request.method === 'POST')).toEqual([]);
  });

  it('restart a running machine, and fail with a sentence for one that is off', async () => {
    const running = addSpareMachine(bot, { prefix: 'step-restart-', state: 'ready' });
    const restarted = await runStep(StepCallbackId.restartMachine, { machine: running.name });
    expect(restarted.ended).toMatchObject({ state: 'completed', outputs: { machine_name: running.name } });
    expect(bot.emulator.state.machine(running.id)?.state).not.toBe('ready');

    const off = addSpareMachine(bot, { prefix: 'step-restart-off-', state: 'off' });
    const refused = await runStep(StepCallbackId.restartMachine, { machine: off.name });
    expect(refused.ended).toMatchObject({ state: 'failed' });
    expect(refused.ended.state === 'failed' && refused.ended.error).toContain('Start machine step');
  });

  it('fail naming the machine when the key sees none of that name', async () => {
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: 'no-such-box' });
    expect(ended.state === 'failed' && ended.error).toContain('No machine called "no-such-box"');
  });

  it('fail without any Paperspace call for a person who has not turned steps on', async () => {
    const machine = addSpareMachine(bot, {
      prefix: 'step-sam-',
      state: 'off',
      owner: USERS.sam.emulatorUserId,
    });
    const before = callsBy(USERS.sam.emulatorUserId);
    const { ended, event } = await runStep(
      StepCallbackId.startMachine,
      { machine: machine.name },
      { by: SAM },
    );
    expect(ended.state === 'failed' && ended.error).toContain(
      'The person this step acts for has not allowed Paperspace steps',
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
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: machine.name }, { by: NOKEY });
    expect(ended.state === 'failed' && ended.error).toContain(
      'The person this step acts for has no Paperspace key linked',
    );
    // Told to link a key first: `/ps steps on` alone would only ask them to log in.
    expect(ended.state === 'failed' && ended.error).toContain('link one first with `/ps login`');
    expect(bot.emulator.state.requests().length).toBe(before);
  });

  it('fail with what the builder typed shown as text: a machine called <!channel> notifies nobody', async () => {
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: '<!channel> & co' });
    expect(ended.state).toBe('failed');
    const error = ended.state === 'failed' ? ended.error : '';
    expect(error).toContain('&lt;!channel&gt; &amp; co');
    expect(error).not.toContain('<!channel>');
  });

  it('act for nobody when the person is a plain input the builder filled in, as the earlier manifest had it', async () => {
    // A workspace that installed the app when "Act as" was a user_id: Sam built the workflow, filled in
    // Ada, and started it. Ada turned steps on, for workflows she starts, not for Sam's.
    const earlier = readManifestSteps()[StepCallbackId.startMachine];
    if (earlier === undefined) throw new Error('manifest.yml has no start_machine step');
    const installedAs: ManifestStep = {
      ...earlier,
      input_parameters: {
        ...earlier.input_parameters,
        user: { type: 'slack#/types/user_id', is_required: true },
      },
    };
    const machine = addSpareMachine(bot, { prefix: 'step-builder-', state: 'off' });
    const before = bot.emulator.state.requests().length;
    const { ended } = await runStep(
      StepCallbackId.startMachine,
      { machine: machine.name, user: ADA },
      { by: SAM, installedAs },
    );
    expect(ended.state === 'failed' && ended.error).toContain('remove the step and add it again');
    expect(bot.emulator.state.requests().length).toBe(before);
    expect(bot.emulator.state.machine(machine.id)?.state).toBe('off');
  });

  it("act for the person who started the workflow, never with the key of the machine's owner", async () => {
    // A machine of Ada's, in a workflow Sam started: the step is Sam's, and Sam has not turned steps on.
    const machine = addSpareMachine(bot, { prefix: 'step-not-ada-', state: 'off' });
    const before = { ada: callsBy(USERS.ada.emulatorUserId), all: bot.emulator.state.requests().length };
    const { ended } = await runStep(StepCallbackId.startMachine, { machine: machine.name }, { by: SAM });
    expect(ended.state === 'failed' && ended.error).toContain('has not allowed Paperspace steps');
    expect(callsBy(USERS.ada.emulatorUserId)).toBe(before.ada);
    expect(bot.emulator.state.requests().length).toBe(before.all);
  });

  it('start once and complete once when Slack delivers the run again, even at the same moment', async () => {
    const machine = addSpareMachine(bot, { prefix: 'step-twice-', state: 'off' });
    const event = bot.slack.functions.execute({
      callbackId: StepCallbackId.startMachine,
      inputs: { machine: machine.name },
      by: ADA,
    });
    const first = bot.requests.event({ ...event });
    const responses = await Promise.all([bot.send(first), bot.send(bot.requests.redelivery(first))]);
    expect(responses.map((response) => response.status)).toEqual([200, 200]);
    await eventually(() =>
      bot.slack.functions.execution(event.function_execution_id)?.state === 'completed' ? true : undefined,
    );
    // A third delivery, later, finds the run taken too.
    expect((await bot.send(bot.requests.redelivery(first, 2))).status).toBe(200);
    await settle(300);
    const starts = bot.emulator.state
      .requests()
      .filter((request) => request.method === 'POST' && request.path.includes(machine.id));
    expect(starts).toHaveLength(1);
    expect(completionsOf(bot.slack, event.function_execution_id)).toEqual(['functions.completeSuccess']);
    const records = await bot.store.audit.list({ resourceId: machine.id, limit: 10 });
    expect(records.filter((record) => record.action === 'workflow_step.start')).toHaveLength(1);
  });
});
