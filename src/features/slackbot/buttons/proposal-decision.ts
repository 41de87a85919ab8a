// Confirm and Cancel on the bot's message about a change Slackbot proposed. Only the person it was
// proposed for can decide it, once, before it expires; anyone else's click changes nothing. A Confirm
// runs the operation exactly as `/ps` would for that person in their DM (the same permission checks,
// Ask-the-owner offers, approvals, card, watch and completion), audited as confirmed from Slackbot.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { mention, slackDate } from '../../../slack/block-kit/text.js';
import { type ButtonClick, buttonHandler, redrawClickedMessage } from '../../../slack/button-click.js';
import type { CommandContext } from '../../../slack/command-context.js';
import { ActionId } from '../../../slack/ids.js';
import { inRequest } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { ProposalDecision, SlackbotProposal } from '../../../store/slackbot-proposals.js';
import type { FrontDoor } from '../../feature.js';
import { decidedProposalMessage } from '../blocks/proposal-message.js';
import { proposalView } from '../proposals.js';
import type { SlackbotDeps } from '../slackbot-deps.js';

const UNKNOWN = 'I no longer know this request from Slackbot, so nothing was done. Ask Slackbot again.';

export function registerProposalButtons(router: ListenerRouter, deps: SlackbotDeps, door: FrontDoor): void {
  router.action<BlockAction<ButtonAction>>(
    ActionId.slackbotConfirm,
    buttonHandler(deps, (click, args) => decide(deps, door, click, 'confirmed', args.respond)),
  );
  router.action<BlockAction<ButtonAction>>(
    ActionId.slackbotCancel,
    buttonHandler(deps, (click, args) => decide(deps, door, click, 'cancelled', args.respond)),
  );
}

async function decide(
  deps: SlackbotDeps,
  door: FrontDoor,
  click: ButtonClick,
  decision: ProposalDecision,
  respond: CommandContext['respond'],
): Promise<void> {
  const proposals = deps.store.slackbotProposals;
  const proposal = await proposals.get(click.value);
  const operation = door.operations.find((candidate) => candidate.name === proposal?.operation);
  if (proposal === undefined || operation === undefined) {
    await click.replyPrivately(plainMessage(UNKNOWN));
    return;
  }
  if (proposal.user.teamId !== click.user.teamId || proposal.user.userId !== click.user.userId) {
    const text = `This was proposed for ${mention(proposal.user.userId)}: only they can confirm or cancel it. Nothing was done.`;
    await click.replyPrivately(plainMessage(text));
    return;
  }
  const view = proposalView(proposal, operation);
  const at = deps.now();
  const redraw = (outcome: string) =>
    redrawClickedMessage(click.web, click, {
      done: outcome,
      redraw: () => decidedProposalMessage(view, outcome),
      what: 'a Slackbot confirmation',
    });
  if (!(await proposals.decide(proposal.id, decision, at))) {
    const outcome = await alreadyDecided(deps, proposal.id);
    await redraw(outcome);
    if (click.message === undefined) return;
    await click.replyPrivately(plainMessage(`${outcome} Nothing more was done.`));
    return;
  }
  if (decision === 'cancelled') {
    await redraw(`Cancelled by you ${slackDate(at, '{date_short_pretty} at {time}')}; nothing was done.`);
    return;
  }
  await redraw(`Confirmed by you ${slackDate(at, '{date_short_pretty} at {time}')}.`);
  const params = operation.params.safeParse(proposal.params);
  if (!params.success) {
    // The bot changed under the proposal (a parameter renamed by a release): say so, do nothing.
    await click.replyPrivately(
      plainMessage(`${view.title}: this request no longer fits what I can do. Ask Slackbot again.`),
    );
    return;
  }
  const context: CommandContext = { ...click, channelId: click.channelId ?? click.user.userId, respond };
  const operationDeps = door.depsOf(operation);
  await deps.audit.run(
    { user: click.user, action: `slackbot.confirm.${operation.name}`, note: 'confirmed from Slackbot' },
    () => operation.run(params.data, context, inRequest(operationDeps, context)),
  );
}

async function alreadyDecided(deps: SlackbotDeps, id: string): Promise<string> {
  const current: SlackbotProposal | undefined = await deps.store.slackbotProposals.get(id);
  if (current?.decision === 'confirmed') return 'Already confirmed.';
  if (current?.decision === 'cancelled') return 'Already cancelled.';
  return 'This request expired. Ask Slackbot again if you still want it.';
}
