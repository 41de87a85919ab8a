// A change Slackbot asked for is never made inside its call: it is kept (the store's proposals) and
// the bot asks the person in their DM, with Confirm and Cancel. Only their click runs it, within
// PROPOSAL_TTL_MS, once (buttons/proposal-decision.ts).
import { randomUUID } from 'node:crypto';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../errors/describe-error.js';
import type { ToolOperation } from '../../slack/mcp/operation-tools.js';
import { refusal } from '../../slack/mcp/tool-result.js';
import type { Operation } from '../../slack/operation.js';
import { postIn } from '../../slack/posting.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { SlackbotProposal } from '../../store/slackbot-proposals.js';
import { detailLines, type ProposalView, proposalMessage } from './blocks/proposal-message.js';
import type { SlackbotDeps } from './slackbot-deps.js';

/** How long a person has to confirm what Slackbot proposed. */
export const PROPOSAL_TTL_MS = 10 * 60_000;
/** Decided or expired proposals are kept this long for a late click's answer, then forgotten. */
const KEPT_AFTER_EXPIRY_MS = 24 * 60 * 60_000;

/** How the person is shown a proposal: the operation's title and effect, the parameters it will run with. */
export function proposalView(
  proposal: Pick<SlackbotProposal, 'id' | 'params' | 'expiresAt'>,
  operation: Operation,
): ProposalView {
  return {
    id: proposal.id,
    title: operation.tool?.title ?? operation.summary,
    details: detailLines(proposal.params),
    effect: operation.help.effect,
    expiresAt: proposal.expiresAt,
  };
}

export async function proposeChange(
  deps: SlackbotDeps,
  operation: ToolOperation,
  params: unknown,
  { user, web }: { user: SlackUser; web: WebClient },
): Promise<CallToolResult> {
  const at = deps.now();
  const proposal = { id: randomUUID(), params, expiresAt: at + PROPOSAL_TTL_MS };
  const view = proposalView(proposal, operation);
  await deps.store.slackbotProposals.add({
    ...proposal,
    user,
    operation: operation.name,
    summary: [view.title, ...view.details].join('\n'),
    createdAt: at,
  });
  deps.store.slackbotProposals.pruneExpired(at - KEPT_AFTER_EXPIRY_MS).catch((error: unknown) => {
    deps.logger.warn({ error: describeError(error) }, 'could not forget old Slackbot proposals');
  });
  try {
    await postIn(web, { channel: user.userId }, proposalMessage(view), deps.pacer);
  } catch (error) {
    deps.logger.warn({ error: describeError(error) }, 'could not send a Slackbot confirmation');
    return refusal(
      `${view.title}: I could not send you the confirmation in Slack, so nothing was done. Try again, or use /ps in Slack.`,
    );
  }
  const asked =
    view.details.length === 0 ? '' : ` (${view.details.map((line) => line.replace(/^• /, '')).join('; ')})`;
  return {
    content: [
      {
        type: 'text',
        text: `${view.title}${asked}? I sent you a confirmation in Slack, in your messages with me: nothing happens until you click Confirm there, within ${PROPOSAL_TTL_MS / 60_000} minutes.`,
      },
    ],
  };
}
