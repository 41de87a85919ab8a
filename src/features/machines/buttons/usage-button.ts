// Usage on a machine card: this UTC month's hours and cost, to the clicker alone, read with their key.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { decodeMachineRef } from '../blocks/machine-ref.js';
import { usageMessage } from '../blocks/usage.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import { cardAction } from './machine-click.js';

export function registerUsageButton(router: ListenerRouter, deps: MachinesDeps): void {
  router.action<BlockAction<ButtonAction>>(
    ActionId.machineUsage,
    cardAction<BlockAction<ButtonAction>>(deps, async (click, action) => {
      const ref = decodeMachineRef(action.value ?? '');
      const paperspace = await click.userClient();
      if (!paperspace) return;
      const utilization = await createMachineOperations(deps).usage(
        { user: click.user, client: paperspace },
        ref.id,
        null,
      );
      const estimated = paperspace.capabilities.utilization === 'estimated';
      await click.replyPrivately(usageMessage(ref.name, utilization, deps.now(), estimated));
    }),
  );
}
