// Machines: show, start, stop, restart, create, update, destroy, access, usage, claim and assign, as commands, card
// buttons and modals, all acting with the key of the person who typed or clicked. The lowest feature:
// what it does through features above it is handed in (machines-wiring.ts).
import type { Feature } from '../feature.js';
import { registerClaimButton } from './buttons/claim-button.js';
import { registerMachineOverflow } from './buttons/overflow.js';
import { registerPowerButtons } from './buttons/power-buttons.js';
import { registerUsageButton } from './buttons/usage-button.js';
import { accessOperation } from './commands/access.js';
import { createOperation } from './commands/create.js';
import { destroyOperation } from './commands/destroy.js';
import { assignOperation, claimOperation } from './commands/ownership.js';
import { powerOperation } from './commands/power.js';
import { showOperation } from './commands/show.js';
import { updateOperation } from './commands/update.js';
import { usageOperation } from './commands/usage.js';
import { machinesNeeds } from './machines-deps.js';
import type { MachinesWiring } from './machines-wiring.js';
import { registerAccessSubmission } from './modals/access-submission.js';
import { registerAssignSubmission } from './modals/assign-submission.js';
import { registerCreateSubmission } from './modals/create-submission.js';
import { registerDestroySubmission } from './modals/destroy-submission.js';
import { registerUpdateSubmission } from './modals/update-submission.js';

export function createMachinesFeature(wiring: MachinesWiring) {
  const { requests } = wiring;
  return {
    needs: machinesNeeds,
    operations: [
      showOperation(wiring.leases),
      powerOperation('start', requests),
      powerOperation('stop', requests),
      powerOperation('restart', requests),
      createOperation(requests),
      updateOperation,
      destroyOperation,
      accessOperation,
      usageOperation,
      claimOperation,
      assignOperation,
    ],
    listen(router, deps) {
      registerPowerButtons(router, deps, wiring);
      registerUsageButton(router, deps);
      registerMachineOverflow(router, deps);
      registerCreateSubmission(router, deps, wiring.requests);
      registerUpdateSubmission(router, deps);
      registerDestroySubmission(router, deps);
      registerAccessSubmission(router, deps);
      registerClaimButton(router, deps, wiring);
      registerAssignSubmission(router, deps);
    },
  } as const satisfies Feature<typeof machinesNeeds>;
}
