// "This is mine" on a machine with no owner yet (a card, a list row, the App Home, a spend row or an
// alert): the clicker claims it with their own key, which must see the machine. The answer goes to
// them alone; their App Home, or the list page whose row they clicked, is drawn again.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { ActionId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { claimMachine } from '../machine-ownership.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { MachinesWiring } from '../machines-wiring.js';
import { cardAction, clickedMachine, redrawListRow } from './machine-click.js';

export function registerClaimButton(
  router: ListenerRouter,
  deps: MachinesDeps,
  wiring: MachinesWiring,
): void {
  router.action<BlockAction<ButtonAction>>(
    ActionId.machineClaim,
    cardAction<BlockAction<ButtonAction>>(deps, async (click, action) => {
      const clicked = await clickedMachine(click, action);
      if (!clicked) return;
      const said = await claimMachine(deps, { user: click.user, client: clicked.client }, clicked.machine);
      await click.replyPrivately(plainMessage(said));
      if (click.card.kind === 'home') await wiring.refreshHome(click.web, deps, click.user);
      // A list row: the page is drawn again, the row now the clicker's (or naming who has it).
      await redrawListRow(click, action.block_id, wiring.listPage, deps);
    }),
  );
}
