// The card's overflow menu: Settings, Access, Destroy and Assign each open their modal. The option carries no
// machine, so the actions block's block_id names it; the machine is read with the clicker's key while
// a "Loading…" modal holds the trigger (valid 3 s), then the form replaces it.
import type { BlockAction, OverflowAction } from '@slack/bolt';
import type { ModalView } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import type { ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { ActionId, MachineOverflowOption } from '../../../slack/ids.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { assignMachineModal } from '../blocks/assign-machine-modal.js';
import { destroyMachineModal } from '../blocks/destroy-machine-modal.js';
import { machineAccessModal } from '../blocks/machine-access-modal.js';
import { machineIdFromBlockId } from '../blocks/machine-ref.js';
import { updateMachineModal } from '../blocks/update-machine-modal.js';
import type { MachinesDeps } from '../machines-deps.js';
import { cardAction, modalContextOf } from './machine-click.js';

const MODALS: Record<
  MachineOverflowOption,
  { title: string; build: (m: Machine, c: ModalContext) => ModalView }
> = {
  [MachineOverflowOption.settings]: { title: 'Machine settings', build: updateMachineModal },
  [MachineOverflowOption.access]: { title: 'Machine access', build: machineAccessModal },
  [MachineOverflowOption.destroy]: { title: 'Destroy machine', build: destroyMachineModal },
  [MachineOverflowOption.assign]: { title: 'Assign machine', build: assignMachineModal },
};

function isOverflowOption(value: string): value is MachineOverflowOption {
  return Object.hasOwn(MODALS, value);
}

export function registerMachineOverflow(router: ListenerRouter, deps: MachinesDeps): void {
  router.action<BlockAction<OverflowAction>>(
    ActionId.machineOverflow,
    cardAction<BlockAction<OverflowAction>>(deps, async (click, action) => {
      const machineId = machineIdFromBlockId(action.block_id);
      const option = action.selected_option.value;
      if (machineId === undefined || !isOverflowOption(option)) {
        throw new Error(`Unexpected machine overflow: block ${action.block_id}, option ${option}`);
      }
      const paperspace = await click.userClient();
      if (!paperspace) return;
      const modal = MODALS[option];
      await openLoadingModal(click, {
        title: modal.title,
        loading: 'Loading the machine…',
        build: async () => modal.build(await paperspace.machines.show(machineId), modalContextOf(click.card)),
      });
    }),
  );
}
