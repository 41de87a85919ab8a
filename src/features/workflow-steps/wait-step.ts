// The "Wait until a machine reaches a state" step: a watch like `/ps wait`'s, stored and polled by the
// watches' poller, that ends the step run instead of posting (watches/step-completion.ts). So it
// survives restarts of the bot and is finished by one replica, and nothing about it lives in memory.
// A machine already in the state completes at once; a wait that can never end (ready on a headless
// machine) fails at once.
import { bootedStateOf, targetReached } from '../../domain/machine-states.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { WAITABLE_STATES, type WaitableState } from '../../paperspace/constants.js';
import { MAX_DURATION_MS } from '../../slack/command-language/duration.js';
import { findMachine } from '../machines/machine-lookup.js';
import { DEFAULT_WATCH_TIMEOUT_MS } from '../machines/machine-watcher.js';
import { stepActor } from './step-actor.js';
import { type StepArgs, stepListener, textInput } from './step-run.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

const MAX_TIMEOUT_MINUTES = MAX_DURATION_MS / 60_000;

function targetOf(inputs: Record<string, unknown>): WaitableState {
  const typed = textInput(inputs, 'state', 'State').toLowerCase();
  const state = WAITABLE_STATES.find((candidate) => candidate === typed);
  if (state === undefined) {
    throw new UserFacingError(
      `"${typed}" is not a state to wait for: use one of ${WAITABLE_STATES.join(', ')}.`,
    );
  }
  return state;
}

function timeoutOf(inputs: Record<string, unknown>): number {
  const typed = inputs.timeout_minutes;
  if (typed === undefined || typed === null || typed === '') return DEFAULT_WATCH_TIMEOUT_MS;
  const minutes = Number(typed);
  if (!Number.isInteger(minutes) || minutes < 1 || minutes > MAX_TIMEOUT_MINUTES) {
    throw new UserFacingError(
      `The timeout must be a whole number of minutes from 1 to ${MAX_TIMEOUT_MINUTES}; it was ${String(typed)}.`,
    );
  }
  return minutes * 60_000;
}

export function waitStep(deps: WorkflowStepsDeps): (args: StepArgs) => Promise<void> {
  return stepListener(deps, 'workflow_step.wait', async ({ user, inputs, executionId }) => {
    const reference = textInput(inputs, 'machine', 'Machine');
    const targetState = targetOf(inputs);
    const timeoutMs = timeoutOf(inputs);
    const actor = await stepActor(deps, user);
    const machine = await findMachine(actor.client, reference);
    if (targetState === 'ready' && bootedStateOf(machine) === 'serviceready') {
      throw new UserFacingError(
        `${machine.name} is a headless Linux machine: a boot ends at serviceready and never reaches ready, so wait for serviceready instead.`,
      );
    }
    if (targetReached(machine.state, targetState)) {
      return {
        resourceId: machine.id,
        outputs: { state: machine.state, public_ip: machine.publicIpAddress ?? '' },
      };
    }
    await deps.watcher.watch({
      user,
      machineId: machine.id,
      machineName: machine.name,
      targetState,
      // Never posted to: the watch ends the step. The person's id keeps the pacer's and the store's
      // per-conversation bookkeeping meaningful.
      channel: user.userId,
      timeoutMs,
      initialState: machine.state,
      functionExecutionId: executionId,
    });
    return { resourceId: machine.id };
  });
}
