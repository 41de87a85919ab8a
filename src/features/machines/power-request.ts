// Start, stop and restart, whether typed or clicked: the change is public chat-ops. The card goes in
// the channel ("🟡 Starting… requested by @ada", the state re-read right after the call), or replaces
// the card that was clicked, and a watch follows the machine to where it is heading unless the person
// said --no-wait. Requests that would change nothing are explained to the person alone.

import type { WebClient } from '@slack/web-api';
import { describeError, slackErrorCode } from '../../errors/describe-error.js';
import { failureText } from '../../errors/user-message.js';
import type { Machine } from '../../paperspace/schemas.js';
import { errorMessage } from '../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import { postedInDmNotice, postPublicly } from '../../slack/posting.js';

import type { WatchRequest } from '../watches/machine-watcher.js';
import { machineCardMessage } from './blocks/machine-card.js';
import { powerRequestedNotice, powerUnchangedMessage } from './blocks/machine-replies.js';
import { type Actor, createMachineOperations, type PowerVerb } from './machine-operations.js';

/** Where the card of the request goes. */
export type CardTarget =
  /** A new card in this channel (a command, an ephemeral card, App Home with the person's id). */
  | { kind: 'post'; channel: string }
  /** The card that was clicked, updated in place. */
  | { kind: 'update'; channel: string; ts: string; threadTs?: string };

export interface PowerRequest {
  deps: ListenerDeps;
  web: WebClient;
  actor: Actor;
  machine: Machine;
  verb: PowerVerb;
  noWait: boolean;
  card: CardTarget;
  /** Answers the person who asked, and no one else. */
  tell: (message: SlackMessage) => Promise<void>;
}

/**
 * Updates the clicked card, or posts a new one. A card Slack will not update (deleted meanwhile, or
 * too old to edit) is replaced by a new post, so the change is still announced and watched.
 */
async function placeCard(
  request: PowerRequest,
  message: SlackMessage,
  machineName: string,
): Promise<{ channel: string; ts: string; threadTs?: string }> {
  const { web, card, actor, deps } = request;
  if (card.kind === 'update') {
    try {
      await web.chat.update({ channel: card.channel, ts: card.ts, ...message });
      return card;
    } catch (error) {
      if (slackErrorCode(error) === undefined) throw error;
      deps.logger.warn(
        { error: describeError(error) },
        'could not update the clicked card; posting a new one',
      );
    }
  }
  const posted = await postPublicly(
    web,
    {
      channel: card.channel,
      userId: actor.user.userId,
      ...(card.kind === 'update' && card.threadTs ? { threadTs: card.threadTs } : {}),
    },
    message,
  );
  if (posted.movedToDm) await request.tell(postedInDmNotice(`the card of ${machineName}`));
  return posted;
}

/** True when the request was sent (false: nothing to do, and the person was told why). */
export async function requestPower(request: PowerRequest): Promise<boolean> {
  const { deps, web, actor, verb, card } = request;
  const operations = createMachineOperations(deps);
  const outcome = await operations.power(actor, request.machine, verb);
  if (outcome.kind === 'unchanged') {
    await request.tell(powerUnchangedMessage(outcome.machine, outcome.reason));
    // A clicked card was stale (it offered Stop on a machine that is off): show it as it is now.
    if (card.kind === 'update') {
      await web.chat.update({ channel: card.channel, ts: card.ts, ...machineCardMessage(outcome.machine) });
    }
    return false;
  }

  const message = machineCardMessage(outcome.machine, {
    notice: powerRequestedNotice(verb, actor.user.userId),
  });
  const place = await placeCard(request, message, outcome.machine.name);
  if (request.noWait) return true;

  const watch: WatchRequest = {
    user: actor.user,
    machineId: outcome.machine.id,
    machineName: outcome.machine.name,
    // Stop waits for off; start and restart for the state a boot of this machine ends in:
    // serviceready for LinuxHeadless (it has no agent to become ready), ready otherwise (bootedStateOf).
    targetState: outcome.targetState,
    channel: place.channel,
    messageTs: place.ts,
    ...(place.threadTs ? { threadTs: place.threadTs } : {}),
    initialState: outcome.machine.state,
  };
  try {
    await deps.watcher.watch(watch);
  } catch (error) {
    // The change was made and the card is out; only the follow-up is missing, and the person can ask for it.
    const reason = failureText(error, deps.logger);
    await request.tell(
      errorMessage(
        `${outcome.machine.name} was asked to ${verb}, but I could not start watching it (${reason}). ` +
          `Use /ps wait ${outcome.machine.name} ${outcome.targetState} to be told when it gets there.`,
      ),
    );
  }
  return true;
}
