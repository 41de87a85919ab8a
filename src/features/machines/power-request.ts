// Start, stop and restart, whether typed or clicked: the change is public chat-ops. The card goes in
// the channel ("🟡 Starting… requested by @ada", the state re-read right after the call), or replaces
// the card that was clicked, and a watch follows the machine to where it is heading unless the person
// said --no-wait. The watch is stored before Paperspace is called, as the request's intent, and told
// afterwards where the card went (power-intent.ts). Requests that would change nothing are explained to
// the person alone.

import type { WebClient } from '@slack/web-api';
import { bootedStateOf, isBooted, isSettled } from '../../domain/machine-states.js';
import { describeError } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import { announce, type FollowUpPlace, provesNothingPosted, withPrivateCopy } from '../../slack/posting.js';
import type { RequestReceipt } from '../../slack/request-receipt.js';
import type { FeatureDeps } from '../feature-deps.js';
import { machineCardMessage } from './blocks/machine-card.js';
import {
  alreadyRequestedMessage,
  alreadyUnderWayMessage,
  powerRequestedNotice,
  powerUnchangedMessage,
  powerUnwatchedNotice,
} from './blocks/machine-replies.js';
import { passBudgetGate } from './budget-gate.js';
import { type Actor, createMachineOperations, type PowerVerb } from './machine-operations.js';
import { notWatchedMessage } from './machine-watcher.js';
import { type IntentSettlement, recordPowerIntent } from './power-intent.js';
import { redrawSupersededCards } from './superseded-cards.js';

/** Where the card of the request goes. */
export type CardTarget =
  /** A new card in this channel (a command, an ephemeral card, App Home with the person's id). */
  | { kind: 'post'; channel: string }
  /** The card that was clicked, updated in place. */
  | { kind: 'update'; channel: string; ts: string; threadTs?: string }
  /**
   * No card: a click on App Home, which is drawn again with the new state instead. A card in the DM
   * would land where the person is not looking; the completion still goes there, as a notification.
   */
  | { kind: 'home' };

/** What a power request uses, which every feature that powers a machine declares. */
export type PowerRequestDeps = FeatureDeps<
  'watches' | 'powerClaims' | 'budgets' | 'approvals',
  'audit' | 'now' | 'watcher' | 'redrawRow' | 'vault'
>;

export interface PowerRequest {
  deps: PowerRequestDeps;
  web: WebClient;
  actor: Actor;
  machine: Machine;
  verb: PowerVerb;
  noWait: boolean;
  card: CardTarget;
  /** Answers the person who asked, and no one else. */
  tell: (message: SlackMessage) => Promise<void>;
  /** The receipt stored before the ack (a typed command): ended as the request is recorded or sent. */
  receipt?: RequestReceipt;
}

/**
 * Updates the clicked card, or posts a new one through the fallback chain. A card Slack will not update
 * (deleted meanwhile, or too old to edit) is replaced by a new post, so the change is still announced
 * and watched. Never throws for Slack's sake: the machine has changed already, and its watch must not
 * depend on the card.
 */
async function placeCard(
  request: PowerRequest,
  message: SlackMessage,
  machineName: string,
): Promise<{ place: FollowUpPlace & { threadTs?: string }; notice: SlackMessage | undefined }> {
  const { web, card, actor, deps } = request;
  if (card.kind === 'home')
    return { place: { channel: actor.user.userId, ts: undefined }, notice: undefined };
  if (card.kind === 'update') {
    try {
      await web.chat.update({ channel: card.channel, ts: card.ts, ...message });
      return { place: card, notice: undefined };
    } catch (error) {
      // An update is safe to have landed twice, a second card is not: when Slack did not answer, the
      // clicked card stays the one followed.
      if (!provesNothingPosted(error)) return { place: card, notice: undefined };
      deps.logger.warn(
        { error: describeError(error) },
        'could not update the clicked card; posting a new one',
      );
    }
  }
  const threadTs = card.kind === 'update' ? card.threadTs : undefined;
  const announced = await announce(
    web,
    { channel: card.channel, userId: actor.user.userId, threadTs },
    message,
    `the card of ${machineName}`,
    deps.pacer,
  );
  const inThread = threadTs !== undefined && announced.place.ts !== undefined;
  return { place: { ...announced.place, ...(inThread ? { threadTs } : {}) }, notice: announced.notice };
}

/**
 * The watch of the same change, when one is under way: the machine is moving and an active watch waits
 * for where this request would send it. A double click (or a second click on another copy of the card,
 * or in App Home) then posts no second card and starts no second watch.
 */
async function changeUnderWay(request: PowerRequest) {
  const { deps, actor, machine, verb } = request;
  if (isSettled(machine.state)) return undefined;
  const target = verb === 'stop' ? 'off' : bootedStateOf(machine);
  const active = await deps.store.watches.listActive({ teamId: actor.user.teamId, machineId: machine.id });
  return active.find((watch) => watch.targetState === target);
}

/** Where the card of a request is meant to go, as its intent records it before the card is placed. */
function intendedPlace(card: CardTarget, userId: string) {
  if (card.kind === 'home') return { channel: userId };
  if (card.kind === 'post') return { channel: card.channel };
  return { channel: card.channel, ts: card.ts, ...(card.threadTs ? { threadTs: card.threadTs } : {}) };
}

/** True when the request was sent (false: nothing to do, and the person was told why). */
export async function requestPower(request: PowerRequest): Promise<boolean> {
  const { deps, web, actor, verb, card } = request;
  const underWay = await changeUnderWay(request);
  if (underWay !== undefined) {
    await request.tell(alreadyUnderWayMessage(request.machine, underWay));
    return false;
  }
  // A start of a machine that is off passes the budget gate (an OverBudgetError stops a member).
  const overBudgetNote =
    verb === 'start' && !isBooted(request.machine.state)
      ? await passBudgetGate(deps, actor, 'start')
      : undefined;
  const operations = createMachineOperations(deps);
  // The watch is stored before the call (power-intent.ts): a replica lost after the call leaves a trace.
  const intent = request.noWait
    ? undefined
    : recordPowerIntent({ ...request, user: actor.user, card: intendedPlace(card, actor.user.userId) });
  // Unwatched, the request's receipt ends just before the call: nothing records it afterwards.
  const receipt = request.receipt;
  const hooks =
    intent?.hooks ??
    (receipt === undefined ? undefined : { record: () => receipt.beforeCall(), abandon: async () => {} });
  const outcome = await operations.power(actor, request.machine, verb, hooks);
  if (outcome.kind === 'already_requested') {
    await request.tell(alreadyRequestedMessage(outcome.machine, verb, outcome));
    return false;
  }
  if (outcome.kind === 'unchanged') {
    await request.tell(powerUnchangedMessage(outcome.machine, outcome.reason));
    // A clicked card was stale (it offered Stop on a machine that is off): show it as it is now.
    if (card.kind === 'update') {
      await web.chat.update({ channel: card.channel, ts: card.ts, ...machineCardMessage(outcome.machine) });
    }
    return false;
  }

  const message = machineCardMessage(outcome.machine, {
    notice: request.noWait
      ? powerUnwatchedNotice(verb, actor.user.userId, outcome.machine, outcome.targetState, deps.now())
      : powerRequestedNotice(verb, actor.user.userId),
  });
  const { place, notice } = await placeCard(request, message, outcome.machine.name);
  const watching =
    intent === undefined
      ? await supersedeWatches(request, outcome.machine)
      : await followed(request, await intent.settle({ ...outcome, place }));
  if (notice !== undefined) {
    // The card is missing from the conversation: the person gets it here, and hears what follows.
    const followUp = watching
      ? `I am watching *${escapeMrkdwn(outcome.machine.name)}* and will tell you when it is ${outcome.targetState}.`
      : undefined;
    const told = place.ts === undefined ? withPrivateCopy(notice, message, followUp) : notice;
    await request.tell(told);
  }
  if (overBudgetNote !== undefined) await request.tell(plainMessage(overBudgetNote));
  return true;
}

/** Whether the machine is followed; a person over their watch limit is told that it is not. */
async function followed(request: PowerRequest, settled: IntentSettlement): Promise<boolean> {
  if (settled.kind === 'refused') {
    await request.tell(
      notWatchedMessage(request.machine.name, `was asked to ${request.verb}`, settled.error),
    );
  }
  return settled.kind === 'watching';
}

/**
 * A --no-wait request starts no watch, but older watches of the machine are waiting for a state it is
 * no longer heading to: they end here and their cards say so. False: nothing is being watched.
 */
async function supersedeWatches(request: PowerRequest, machine: Machine): Promise<false> {
  const { deps, actor, verb } = request;
  const at = deps.now();
  try {
    const superseded = await deps.store.watches.supersede({
      teamId: actor.user.teamId,
      machineId: machine.id,
      at,
      detail: `superseded by a newer ${verb} of the machine`,
    });
    await redrawSupersededCards(request.web, deps, {
      superseded,
      machine,
      operation: verb,
      slackUserId: actor.user.userId,
      at,
    });
  } catch (error) {
    // The request was sent and its card is out; an older card left waiting is the lesser harm.
    deps.logger.warn({ error: describeError(error) }, 'could not end the older watches of a machine');
  }
  return false;
}
