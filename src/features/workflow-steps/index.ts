// Workflow Builder's custom steps (manifest.yml `functions`): Start, Stop and Restart machine and Wait
// until a machine reaches a state, each acting with the key of the person it names once they turned steps on with `/ps steps on`.
import { StepCallbackId } from '../../slack/ids.js';
import type { Feature } from '../feature.js';
import { stepsCommand } from './commands/steps.js';
import { powerStep } from './power-steps.js';
import { waitStep } from './wait-step.js';

export const workflowStepsFeature: Feature<'steps'> = {
  commands: { steps: stepsCommand },
  listen(router, deps) {
    router.function(StepCallbackId.startMachine, powerStep(deps, 'start'));
    router.function(StepCallbackId.stopMachine, powerStep(deps, 'stop'));
    router.function(StepCallbackId.restartMachine, powerStep(deps, 'restart'));
    router.function(StepCallbackId.waitForState, waitStep(deps));
  },
};
