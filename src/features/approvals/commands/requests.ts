// /ps requests: the person's own open requests, and the open requests waiting for their decision.
import { z } from 'zod';
import type { CommandContext } from '../../../slack/command-context.js';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { StoredRequest } from '../../../store/approval-requests.js';
import type { ApprovalsDeps } from '../approvals-deps.js';
import { requestListMessage } from '../blocks/request-list.js';

export const requestsOperation = defineOperation({
  name: 'requests',
  usage: `${ps} requests`,
  summary: 'List your open requests and those waiting for you.',
  help: {
    parameters: [],
    examples: [`${ps} requests`],
    effect: 'Answers only you with your open requests and those waiting for you to approve.',
  },
  kind: 'read',
  tool: {
    name: 'my_requests',
    title: 'My requests',
    description:
      "Lists the person's open requests (machines asked for, starts asked of an owner) and the requests waiting for their decision.",
    idempotent: true,
  },
  params: z.object({}),
  read: (args) => withoutArguments('requests', args),
  run: listRequests,
});

async function listRequests(_command: unknown, context: CommandContext, deps: ApprovalsDeps): Promise<void> {
  const { user } = context;
  const now = deps.now();
  const account = await deps.vault.account(user);
  const [mine, candidates] = await Promise.all([
    deps.store.approvals.openBy(user.teamId, user.userId, now),
    deps.store.approvals.openFor(
      user.teamId,
      { userId: user.userId, paperspaceTeamId: account?.teamId ?? null },
      now,
    ),
  ]);
  for (const request of [...mine, ...candidates]) {
    if (request.details === null) {
      deps.logger.error(
        { requestId: request.id, problem: request.problem },
        'an approval request cannot be read',
      );
    }
  }
  const waiting = candidates.filter((request) => waitsFor(request, user.userId, account?.userId));
  await context.replyPrivately(requestListMessage(mine, waiting));
}

/** Whether this person is among those the request was sent to (or, in a channel, may decide it). */
function waitsFor(request: StoredRequest, userId: string, paperspaceUserId: string | undefined): boolean {
  if (request.ownerId === userId) return true;
  // Whom it was sent to is in the details: one that cannot be read is listed only to the owner it names.
  if (request.details === null) return false;
  if (request.kind !== 'create' && request.details.ownerPaperspaceId !== undefined) {
    return request.details.ownerPaperspaceId === paperspaceUserId;
  }
  const { approvers } = request.details;
  return approvers === undefined || approvers.includes(userId);
}
