// Start, Stop and Restart on a machine card. The clicker acts with their own key: the machine is read
// with it first (so a card for a machine they cannot see fails for them alone), then the shared power
// flow updates the clicked card in place, or posts a new one when the card was ephemeral, or draws App
// Home again when the click came from there, and watches it.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import type { ButtonClick } from '../../../slack/button-click.js';
import { ActionId } from '../../../slack/ids.js';
import { inRequest } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { decodeMachineRef, listPageFromBlockId } from '../blocks/machine-ref.js';
import { cardMovedNotice } from '../blocks/machine-replies.js';
import type { PowerVerb } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { MachinesWiring } from '../machines-wiring.js';
import { type CardTarget, requestPower } from '../power-request.js';
import { receiveRequest } from '../request-receipts.js';
import {
  type CardLocation,
  cardAction,
  clickedMachine,
  type MachineClick,
  redrawListRow,
} from './machine-click.js';

const BUTTONS: Record<PowerVerb, string> = {
  start: ActionId.machineStart,
  stop: ActionId.machineStop,
  restart: ActionId.machineRestart,
};

function cardTarget(card: CardLocation): CardTarget {
  if (card.kind === 'message') {
    return {
      kind: 'update',
      channel: card.channel,
      ts: card.ts,
      ...(card.threadTs ? { threadTs: card.threadTs } : {}),
    };
  }
  // App Home shows the new state itself, drawn again after the click and when the watch ends.
  if (card.kind === 'home') return { kind: 'home' };
  return { kind: 'post', channel: card.channel };
}

/**
 * The ephemeral card would keep offering the old buttons. A row of a list: the page is drawn again, so
 * only that row changes (the rest of the list is what the person was reading). A lone card: it says
 * where the live card is now. A page that cannot be drawn again leaves the list as it was: the change
 * was made and its live card is in the conversation, so the click is not reported as failed.
 */
async function redrawEphemeral(
  click: MachineClick,
  blockId: string,
  verb: PowerVerb,
  machineName: string,
  listPage: MachinesWiring['listPage'],
  deps: MachinesDeps,
): Promise<void> {
  if (click.card.kind !== 'ephemeral') return;
  if (listPageFromBlockId(blockId) === undefined) {
    await click.replaceEphemeral(cardMovedNotice(verb, machineName));
    return;
  }
  await redrawListRow(click, blockId, listPage, deps);
}

/**
 * A click's receipt, stored before its ack, naming the machine as its card does: a replica lost before
 * the request reaches its intent leaves it, and the clicker still hears that nothing was done.
 */
function receiptOf(verb: PowerVerb, deps: MachinesDeps) {
  return (click: ButtonClick, { action }: { action: ButtonAction }) => {
    let name: string;
    try {
      name = decodeMachineRef(action.value ?? '').name;
    } catch {
      // A value the bot did not write: the click fails at once and says so; there is nothing to keep.
      return undefined;
    }
    const asker = { user: click.user, channelId: click.channelId };
    return receiveRequest(inRequest(deps, click), asker, { operation: verb, subject: name });
  };
}

export function registerPowerButtons(
  router: ListenerRouter,
  deps: MachinesDeps,
  { requests, refreshHome, listPage }: MachinesWiring,
): void {
  for (const [verb, actionId] of Object.entries(BUTTONS) as [PowerVerb, string][]) {
    router.action<BlockAction<ButtonAction>>(
      actionId,
      cardAction<BlockAction<ButtonAction>>(
        deps,
        async (click, action) => {
          const clicked = await clickedMachine(click, action);
          if (!clicked) return;
          const { client: paperspace, machine } = clicked;
          const flow = {
            deps: inRequest(deps, click),
            web: click.web,
            noWait: false,
            card: cardTarget(click.card),
            tell: click.replyPrivately,
            ...(click.receipt === undefined ? {} : { receipt: click.receipt }),
          };
          // Someone else's machine: Paperspace lets only its owner power it (approvals feature).
          if ((await requests.routePowerToOwner(click, machine, verb, flow)) === 'handled') return;
          let requested: boolean;
          try {
            requested = await requestPower({
              ...flow,
              actor: { user: click.user, client: paperspace },
              machine,
              verb,
            });
          } catch (error) {
            // v1 names no owner: Paperspace's refusal is the first sign it is someone else's machine.
            if (await requests.offerPowerRequest(error, click, machine, verb, flow.deps)) return;
            throw error;
          }
          // App Home would go on showing the state before the click (or a Stop on a machine found off)
          // until reopened; its watch refreshes it again when the machine gets there.
          if (click.card.kind === 'home') await refreshHome(click.web, inRequest(deps, click), click.user);
          if (requested)
            await redrawEphemeral(click, action.block_id, verb, machine.name, listPage, flow.deps);
        },
        receiptOf(verb, deps),
      ),
    );
  }
}
