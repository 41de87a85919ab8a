// The buttons of a request's life: Send request (a create Paperspace refused), Ask the owner (a power
// click on someone else's machine), Approve, Approve for N hours, Approve and raise the budget, Deny (opens the reason form) and
// Withdraw. Each acks first and answers the clicker alone when something is in the way.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import { type ButtonArgs, type ButtonClick, buttonHandler } from '../../../slack/button-click.js';
import { ActionId } from '../../../slack/ids.js';
import { inRequest } from '../../../slack/interaction.js';
import { openModal } from '../../../slack/open-modal.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { machineIdFromBlockId } from '../../machines/blocks/machine-ref.js';
import {
  decodeApproveFor,
  decodeApproveRaise,
  decodeCreateOffer,
  decodePowerOffer,
} from '../../machines/blocks/request-values.js';
import type { ApprovalsDeps } from '../approvals-deps.js';
import { denyModal } from '../blocks/deny-modal.js';
import type { Decider } from '../decider.js';
import { approve, load, withdraw } from '../request-decisions.js';
import { openCreateRequest, openPowerRequest, type Requester } from '../request-delivery.js';
import type { RequestSettled } from '../request-settled.js';

/** Replaces the offer that was clicked, so it cannot be sent twice. */
async function replaceOffer(args: ButtonArgs, text: string): Promise<void> {
  if (args.body.response_url) await args.respond({ replace_original: true, ...plainMessage(text) });
}

function deciderOf(deps: ApprovalsDeps, click: ButtonClick, settled: RequestSettled): Decider {
  return {
    deps: inRequest(deps, click),
    web: click.web,
    user: click.user,
    tell: click.replyPrivately,
    settled,
  };
}

/**
 * The clicker as a requester. When the click came from an offer message, every answer (sent, or why
 * not) replaces the offer: the "Sending…" it was replaced with never stays as the last word.
 */
async function requesterOf(
  deps: ApprovalsDeps,
  click: ButtonClick,
  args: ButtonArgs,
  replacesOffer: boolean,
): Promise<Requester | undefined> {
  const client = await click.userClient();
  if (!client) return undefined;
  const tell =
    replacesOffer && args.body.response_url
      ? async (message: SlackMessage) => void (await args.respond({ replace_original: true, ...message }))
      : click.replyPrivately;
  return {
    deps: inRequest(deps, click),
    web: click.web,
    user: click.user,
    client,
    channel: click.channelId,
    tell,
  };
}

export function registerRequestButtons(
  router: ListenerRouter,
  deps: ApprovalsDeps,
  settled: RequestSettled,
): void {
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestCreate,
    buttonHandler(deps, async (click, args) => {
      const params = decodeCreateOffer(click.value);
      const requester = await requesterOf(deps, click, args, true);
      const account = await deps.vault.account(click.user);
      if (!requester || !account) return;
      // Only a refused create offers this button: Paperspace has just shown this person is not an administrator.
      await deps.store.approvals.noteRole(click.user.teamId, account.userId, false, deps.now());
      await replaceOffer(args, '📨 Sending your request…');
      await openCreateRequest(requester, account, params);
    }),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestPower,
    buttonHandler(deps, async (click, args) => {
      const offer = decodePowerOffer(click.value);
      // On a machine card (a team list, App Home) the button sits among other machines: only an offer
      // message is replaced, a list stays as it is.
      const fromOffer = machineIdFromBlockId(args.action.block_id) === undefined;
      const requester = await requesterOf(deps, click, args, fromOffer);
      if (!requester) return;
      if (fromOffer) {
        await replaceOffer(args, `📨 Asking the owner of ${offer.name}…`);
      }
      await openPowerRequest({ ...requester, deps }, offer.id, offer.verb);
    }),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestApprove,
    buttonHandler(deps, (click) => approve(deciderOf(deps, click, settled), click.value)),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestApproveFor,
    buttonHandler(deps, (click) => {
      const { id, hours } = decodeApproveFor(click.value);
      return approve(deciderOf(deps, click, settled), id, { grantHours: hours });
    }),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestApproveRaise,
    buttonHandler(deps, (click) => {
      const { id, cents } = decodeApproveRaise(click.value);
      return approve(deciderOf(deps, click, settled), id, { raiseCents: cents });
    }),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestWithdraw,
    buttonHandler(deps, (click) => withdraw(deciderOf(deps, click, settled), click.value)),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.requestDeny,
    buttonHandler(deps, async (click) => {
      const request = await load(deciderOf(deps, click, settled), click.value);
      if (request) await openModal(click, denyModal(request));
    }),
  );
}
