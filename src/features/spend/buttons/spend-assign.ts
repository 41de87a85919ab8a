// Assign on a /ps spend row of a machine with no owner yet: the same form as the card's "Assign to…"
// (machines' assign-machine-modal.ts, whose submission checks with the clicker's own key that they
// administer the machine's team). The machine is read with the clicker's key while a "Loading…" modal
// holds the trigger (valid 3 s); the outcome is told where the report was asked.
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { assignMachineModal } from '../../machines/blocks/assign-machine-modal.js';
import { machineButtonHandler } from '../../machines/machine-button.js';
import type { SpendDeps } from '../spend-deps.js';

export function spendAssignHandler(deps: SpendDeps) {
  return machineButtonHandler(deps, async (click) => {
    const paperspace = await click.userClient();
    if (!paperspace) return;
    await openLoadingModal(click, {
      title: 'Assign machine',
      loading: 'Loading the machine…',
      build: async () =>
        assignMachineModal(
          await paperspace.machines.show(click.machine.id),
          click.channelId === undefined ? {} : { channelId: click.channelId },
        ),
    });
  });
}
