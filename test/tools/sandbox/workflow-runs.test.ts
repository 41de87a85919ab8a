// Workflow Builder's part in the sandbox: `/workflow <step> key=value …` typed in the page runs one of
// the app's steps as a published workflow would (a signed function_executed event that a real Bolt
// app, built with the bot's createSlackApp, verifies and routes to its app.function listener), and
// Slackbot tells the person how the run ended once the app completes or fails it.
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { type Received, type ScriptedSandbox, startScriptedSandbox } from './support/scripted-app.js';
import { waitFor } from './support/wait.js';

const GENERAL = 'C0GENERAL';
const ADA = 'U0ADA';
const MAYA = 'U0MAYA';

let scripted: ScriptedSandbox;

beforeAll(async () => {
  scripted = await startScriptedSandbox();
});
afterAll(async () => {
  await scripted.close();
});
beforeEach(() => {
  scripted.received.length = 0;
});

async function type(text: string, user = ADA): Promise<{ ok: boolean; error?: string }> {
  const response = await fetch(`${scripted.sandbox.url}/sandbox/command`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ user, channel: GENERAL, text }),
  });
  return (await response.json()) as { ok: boolean; error?: string };
}

const slackbotSays = (pattern: string, userId = ADA) =>
  waitFor(
    () =>
      scripted.sandbox.workspace
        .snapshotFor(userId)
        .ephemerals.find((message) => message.text.includes(pattern)),
    `Slackbot saying "${pattern}"`,
  );
const events = (): Received[] => scripted.received.filter((entry) => entry.kind === 'event');
/** The function_executed event of the only run the app received. */
function onlyRun(): { inputs: unknown } & Record<string, unknown> {
  const [run, ...more] = events();
  expect(more).toEqual([]);
  return (run?.body as { event: { inputs: unknown } } | undefined)?.event ?? { inputs: undefined };
}

describe('/workflow in the sandbox', () => {
  it("runs a step with the manifest's inputs, its user context set from whoever runs it, and shows its outputs", async () => {
    expect(await type('/workflow stop_machine machine="gpu 1"')).toEqual({ ok: true });
    const event = onlyRun();
    expect(event).toMatchObject({
      type: 'function_executed',
      function: { callback_id: 'stop_machine', title: 'Stop a Paperspace machine' },
      inputs: { machine: 'gpu 1', user: { id: ADA, secret: expect.any(String) } },
    });
    expect(String(event.bot_access_token)).toMatch(/^xwfp-/);
    const done = await slackbotSays('completed');
    expect(done.text).toBe(
      'Workflow step “Stop a Paperspace machine” completed. machine_id: ps123, machine_name: gpu 1, state: stopping',
    );
  });

  it('runs for whoever types it, never a person typed in, and shows the sentence of a failed step', async () => {
    expect(await type('/workflow restart_machine machine=gpu-1 user=@maya')).toEqual({
      ok: false,
      error: 'user= is set by Slack from whoever runs the workflow',
    });
    expect(events()).toEqual([]);
    await type('/workflow restart_machine machine=gpu-1', MAYA);
    expect(onlyRun().inputs).toEqual({
      machine: 'gpu-1',
      user: { id: MAYA, secret: expect.any(String) },
    });
    const failed = await slackbotSays('failed', MAYA);
    expect(failed.text).toBe(
      'Workflow step “Restart a Paperspace machine” failed: gpu-1 is off, so there is nothing to restart.',
    );
  });

  it('refuses a completion missing a declared output, as Slack does, and leaves the run open', async () => {
    await type('/workflow stop_machine machine=no-state');
    await waitFor(
      () =>
        scripted.sandbox.workspace
          .snapshotFor(ADA)
          .messages.find((message) => message.text.includes('refused: parameter_validation_failed')),
      'the refusal',
    );
  });

  it('sends integers as numbers, and refuses unknown steps, missing inputs and unknown ones', async () => {
    await type('/workflow wait_for_machine_state machine=gpu-1 state=off timeout_minutes=5');
    expect(onlyRun().inputs).toEqual({
      machine: 'gpu-1',
      state: 'off',
      timeout_minutes: 5,
      user: { id: ADA, secret: expect.any(String) },
    });
    expect(await type('/workflow launch_rocket')).toMatchObject({
      ok: false,
      error: expect.stringContaining('stop_machine'),
    });
    expect(await type('/workflow stop_machine')).toEqual({
      ok: false,
      error: 'machine= is required by this step',
    });
    expect(await type('/workflow stop_machine machine=a colour=red')).toEqual({
      ok: false,
      error: 'this step has no input colour',
    });
    expect(events()).toHaveLength(1);
  });
});
