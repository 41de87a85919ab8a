// Machines: show, start, stop, restart, create, update, destroy, access and usage, as commands, card
// buttons and modals, all acting with the key of the person who typed or clicked.
import type { Feature } from '../feature.js';
import { registerMachineOverflow } from './buttons/overflow.js';
import { registerPowerButtons } from './buttons/power-buttons.js';
import { registerUsageButton } from './buttons/usage-button.js';
import { machineCommandHandlers } from './commands/index.js';
import { registerAccessSubmission } from './modals/access-submission.js';
import { registerCreateSubmission } from './modals/create-submission.js';
import { registerDestroySubmission } from './modals/destroy-submission.js';
import { registerUpdateSubmission } from './modals/update-submission.js';

export const machinesFeature: Feature<keyof typeof machineCommandHandlers> = {
  commands: machineCommandHandlers,
  listen(router, deps) {
    registerPowerButtons(router, deps);
    registerUsageButton(router, deps);
    registerMachineOverflow(router, deps);
    registerCreateSubmission(router, deps);
    registerUpdateSubmission(router, deps);
    registerDestroySubmission(router, deps);
    registerAccessSubmission(router, deps);
  },
};
