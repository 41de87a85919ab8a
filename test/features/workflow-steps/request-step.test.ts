import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId, StepCallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { eventually, settle, textOf } from '../machines/machine-kit.js';
import { completionsOf } from './step-kit.js';

// Sam is a member of Maya's Paperspace team: only Maya (an administrator) may create. A workflow's
// "Request a machine" step names Sam; Maya decides in her DM, as for a request Sam sent himself.
const clock = createFakeClock();
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const ADA = USERS.ada.slackId;
/** Turned steps on, but never linked a Paperspace key. */
const NOKEY = 'U0NOKEY';
const HOUR = 3_600_000;

const bot = useTestBot({
  emulator: { now: clock.now },
  now: clock.now,
  linked: ['ada', 'maya', 'sam'],
  async prepare(started) {
    for (const userId of [SAM, NOKEY]) {
      const request = started.requests.slashCommand({ text: 'steps on', userId });
      await started.send(request);
      await started.slack.waitForResponse(request.responseUrlId ?? '');
    }
  },
});

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

const postsTo = (channel: string) => (call: ApiCall) =>
  call.method === 'chat.postMessage' && call.args.channel === channel;

/** The step's inputs as Workflow Builder sends them, for a machine named `name`. */
const inputsFor = (name: string, overrides: Record<string, unknown> = {}) => ({
  machine_name: name,
  machine_type: 'C4',
  template: 't04azgph',
  region: 'CA1',
  disk_size: 50,
  reason: 'Training run for the Q3 model',
  ...overrides,
});

/** The function_executed event of a run `by` started (Slack sets the step's user context from them). */
const runOf = (inputs: Record<string, unknown>, by: string) =>
  bot.slack.functions.execute({ callbackId: StepCallbackId.requestMachine, inputs, by });

/** Runs the step as a workflow Sam (or `by`) started would: the event, signed, into the bot. */
async function runStep(inputs: Record<string, unknown>, by: string = SAM): Promise<string> {
  const event = runOf(inputs, by);
  expect((await bot.send(bot.requests.event({ ...event }))).status).toBe(200);
  return event.function_execution_id;
}

const executionOf = (id: string) => bot.slack.functions.execution(id);
const ended = (id: string) =>
  eventually(() => {
    const execution = executionOf(id);
    return execution?.state === 'running' ? undefined : execution;
  });

/** The step for a machine named `name`, up to Maya's copy of the request; answers its ids. */
async function requestThroughStep(name: string) {
  const executionId = await runStep(inputsFor(name));
  const toMaya = await bot.slack.waitFor(
    (call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes(name),
  );
  return { executionId, toMaya, requestId: buttonValue(toMaya.args.blocks, ActionId.requestApprove) };
}

async function click(actionId: string, value: string, userId: string) {
  await bot.send(
    bot.requests.blockAction({
      actionId,
      value,
      userId,
      channelId: `D${userId}`,
      message: { ts: '1700000000.000100' },
    }),
  );
}

/** Paperspace calls made with this person's key so far. */
const callsBy = (emulatorUserId: string) =>
  bot.emulator.state.requests().filter((request) => request.userId === emulatorUserId).length;

describe('the Request a machine step', () => {
  it('stays open while the request waits, then completes with the machine once it is approved and created', async () => {
    const { executionId, toMaya, requestId } = await requestThroughStep('step-approved');
    // The administrator reads who asks, why, and for what; the requester gets the receipt.
    expect(textOf(toMaya.args.blocks)).toContain(`<@${SAM}>`);
    expect(textOf(toMaya.args.blocks)).toContain('Training run for the Q3 model');
    expect(textOf(toMaya.args.blocks)).toContain('C4');
    await bot.slack.waitFor((call) => postsTo(SAM)(call) && textOf(call.args.blocks).includes('Withdraw'));
    await settle(200);
    expect(executionOf(executionId)).toEqual({ state: 'running' });
    expect(bot.emulator.state.machineByName('step-approved')).toBeUndefined();

    await click(ActionId.requestApprove, requestId, MAYA);
    const result = await ended(executionId);
    const machine = bot.emulator.state.machineByName('step-approved');
    expect(machine).toBeDefined();
    expect(result).toEqual({
      state: 'completed',
      outputs: { machine_id: machine?.id, machine_name: 'step-approved', state: expect.any(String) },
    });
    const audit = await bot.store.audit.list({ resourceId: requestId, limit: 10 });
    expect(audit.map((record) => [record.action, record.userId])).toEqual(
      expect.arrayContaining([
        ['workflow_step.request', SAM],
        ['approval.request', SAM],
      ]),
    );
  });

  it('completes after a restart of the bot: the request keeps the step run', async () => {
    const { executionId, requestId } = await requestThroughStep('step-restart');
    await bot.restart();
    await click(ActionId.requestApprove, requestId, MAYA);
    const result = await ended(executionId);
    expect(result).toMatchObject({ state: 'completed', outputs: { machine_name: 'step-restart' } });
  });

  it('fails with the reason when an administrator denies it, and creates nothing', async () => {
    const { executionId, requestId } = await requestThroughStep('step-denied');
    await click(ActionId.requestDeny, requestId, MAYA);
    await bot.slack.waitFor('views.open');
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.denyRequest,
        userId: MAYA,
        privateMetadata: bot.sealMetadata(JSON.stringify({ requestId })),
        values: { deny_reason: { deny_reason_input: 'use the shared box' } },
      }),
    );
    const result = await ended(executionId);
    expect(result.state === 'failed' && result.error).toBe(
      `<@${MAYA}> denied the request for step-denied: “use the shared box”`,
    );
    expect(bot.emulator.state.machineByName('step-denied')).toBeUndefined();
  });

  it('fails when the request expires before anyone decides it', async () => {
    const { executionId } = await requestThroughStep('step-expired');
    clock.advance(25 * HOUR);
    await bot.scheduler.tick();
    const result = await ended(executionId);
    expect(result.state === 'failed' && result.error).toBe(
      'The request for step-expired expired before anyone decided it.',
    );
  });

  it('fails when the requester withdraws it', async () => {
    const { executionId, requestId } = await requestThroughStep('step-withdrawn');
    await click(ActionId.requestWithdraw, requestId, SAM);
    const result = await ended(executionId);
    expect(result.state === 'failed' && result.error).toBe(
      `<@${SAM}> withdrew the request for step-withdrawn.`,
    );
  });

  it('opens one request and completes once when Slack delivers the run again', async () => {
    const event = runOf(inputsFor('step-twice'), SAM);
    const first = bot.requests.event({ ...event });
    const sent = await Promise.all([bot.send(first), bot.send(bot.requests.redelivery(first))]);
    expect(sent.map((response) => response.status)).toEqual([200, 200]);
    const toMaya = await bot.slack.waitFor(
      (call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes('step-twice'),
    );
    expect((await bot.send(bot.requests.redelivery(first, 2))).status).toBe(200);
    await settle(300);
    const open = await bot.store.approvals.openBy(bot.slack.teamId, SAM, clock.now());
    expect(open.filter((request) => request.machineName === 'step-twice')).toHaveLength(1);
    const asked = bot.slack
      .calls('chat.postMessage')
      .filter((call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes('step-twice'));
    expect(asked).toHaveLength(1);

    await click(ActionId.requestApprove, buttonValue(toMaya.args.blocks, ActionId.requestApprove), MAYA);
    expect(await ended(event.function_execution_id)).toMatchObject({ state: 'completed' });
    await settle(200);
    expect(completionsOf(bot.slack, event.function_execution_id)).toEqual(['functions.completeSuccess']);
    expect(bot.emulator.state.machineByName('step-twice')).toBeDefined();
  });

  it('fails at once, with no Paperspace call, for a person without steps on or without a key', async () => {
    const before = { ada: callsBy(USERS.ada.emulatorUserId), all: bot.emulator.state.requests().length };
    const off = await ended(await runStep(inputsFor('step-ada'), ADA));
    expect(off.state === 'failed' && off.error).toContain(
      'The person this step acts for has not allowed Paperspace steps',
    );
    const nokey = await ended(await runStep(inputsFor('step-nokey'), NOKEY));
    expect(nokey.state === 'failed' && nokey.error).toContain(
      'The person this step acts for has no Paperspace key linked',
    );
    expect(callsBy(USERS.ada.emulatorUserId)).toBe(before.ada);
    expect(bot.emulator.state.requests().length).toBe(before.all);
    expect(bot.slack.calls('chat.postMessage').filter(postsTo(MAYA))).toHaveLength(0);
  });

  it('fails at once, naming the input, for a machine Paperspace would refuse, and asks no one', async () => {
    // The contract takes only its listed sizes; v1 any whole size above 0, so only a fraction fails there.
    const refused = bot.dialect === 'v1' ? 2.5 : 51;
    const size = await ended(await runStep(inputsFor('step-size', { disk_size: refused })));
    expect(size.state === 'failed' && size.error).toContain('size');
    expect(size.state === 'failed' && size.error).toContain(String(refused));
    const region = await ended(await runStep(inputsFor('step-region', { region: 'Mars' })));
    expect(region.state === 'failed' && region.error).toBe(
      '"Mars" is not a Paperspace region: use one of CA1, NY2, AMS1.',
    );
    const template = await ended(await runStep(inputsFor('step-template', { template: 'tnone' })));
    expect(template.state === 'failed' && template.error).toContain('no template "tnone"');
    expect(await bot.store.approvals.openBy(bot.slack.teamId, SAM, clock.now())).toEqual([]);
  });
});
