// Start, Stop and Restart machine as Workflow Builder steps: the same power request as a click (its
// claim against a second request, its audit record), with the key of the person the step acts for. A
// machine already where the step would take it completes the step: "stop my dev machines" at 19:00
// succeeds for the ones already off. The outputs are the machine as re-read after the request; the
// Wait step follows it to a state.
import type { WebClient } from '@slack/web-api';
import { isBooted } from '../../domain/machine-states.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import { requestStartOverBudget } from '../approvals/budget-route.js';
import { passBudgetGate } from '../machines/budget-gate.js';
import { findMachine } from '../machines/machine-lookup.js';
import { type Actor, createMachineOperations, type PowerVerb } from '../machines/machine-operations.js';
import { stepActor } from './step-actor.js';
import { type StepArgs, type StepOutputs, stepListener, textInput } from './step-run.js';
import type { WorkflowStepsDeps } from './workflow-steps-deps.js';

/** The outputs every machine step declares in manifest.yml. */
function machineOutputs(machine: Pick<Machine, 'id' | 'name' | 'state'>): StepOutputs {
  return { machine_id: machine.id, machine_name: machine.name, state: machine.state };
}

export function powerStep(deps: WorkflowStepsDeps, verb: PowerVerb): (args: StepArgs) => Promise<void> {
  return stepListener(deps, `workflow_step.${verb}`, async ({ user, inputs, web }) => {
    const reference = textInput(inputs, 'machine', 'Machine');
    const actor = await stepActor(deps, user);
    const machine = await findMachine(actor.client, reference);
    if (verb === 'start' && !isBooted(machine.state)) await passGateOrRequest(deps, actor, machine, web);
    const outcome = await createMachineOperations(deps).power(actor, machine, verb);
    if (outcome.kind === 'unchanged' && outcome.reason === 'off_cannot_restart') {
      throw new UserFacingError(
        `${machine.name} is off, so there is nothing to restart: use the Start machine step for it.`,
      );
    }
    return { resourceId: outcome.machine.id, outputs: machineOutputs(outcome.machine) };
  });
}

/**
 * The budget gate, as for a click: a member whose budget is spent has the start sent to the
 * administrators as a request (its receipt in their DM), and the step fails saying so, since the
 * machine was not started.
 */
async function passGateOrRequest(
  deps: WorkflowStepsDeps,
  actor: Actor,
  machine: Machine,
  web: WebClient,
): Promise<void> {
  try {
    await passBudgetGate(deps, actor, 'start');
  } catch (error) {
    const told: string[] = [];
    const tell = async (message: { text?: string }) => void told.push(message.text ?? '');
    const requester = { deps, web, ...actor, channel: undefined, tell };
    if (!(await requestStartOverBudget(error, requester, machine))) throw error;
    throw new UserFacingError(told.join(' '));
  }
}
