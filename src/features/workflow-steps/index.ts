// Workflow Builder's custom steps (manifest.yml `functions`): Start, Stop and Restart machine, Wait
// until a machine reaches a state, and Request a machine (an approvals create request). Each acts with
// the key of the person who started the workflow or clicked in it (the user context Slack sets), once
// they turned steps on with `/ps steps on`, and runs once however often Slack delivers it.
import { StepCallbackId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { stepsOperation } from './commands/steps.js';
import { powerStep } from './power-steps.js';
import { requestStep } from './request-step.js';
import { waitStep } from './wait-step.js';
import { workflowStepsNeeds } from './workflow-steps-deps.js';

export const workflowStepsFeature = {
  needs: workflowStepsNeeds,
  operations: [stepsOperation],
  listen(router, deps) {
    router.function(StepCallbackId.startMachine, powerStep(deps, 'start'));
    router.function(StepCallbackId.stopMachine, powerStep(deps, 'stop'));
    router.function(StepCallbackId.restartMachine, powerStep(deps, 'restart'));
    router.function(StepCallbackId.waitForState, waitStep(deps));
    router.function(StepCallbackId.requestMachine, requestStep(deps));
  },
} as const satisfies Feature<typeof workflowStepsNeeds>;
