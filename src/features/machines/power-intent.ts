// The watch of a start, stop or restart, stored as its intent before the call to Paperspace and told
// afterwards what the call answered and where the card went. A replica that dies, or loses its
// database, anywhere between the call and that record leaves the intent for another replica (or
// itself, restarted) to settle (watches/intent-recovery.ts): the machine is followed, or the person is
// told in a sentence naming it that the request did not happen. Stored after the call, a watch was lost
// with the replica: the machine changed and nobody was told.
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../errors/describe-error.js';
import type { WaitableState } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { FollowUpPlace } from '../../slack/posting.js';
import type { RequestReceipt } from '../../slack/request-receipt.js';
import { ReceiptTakenError } from '../../store/received-requests.js';
import type { CreatedWatch } from '../../store/watch-types.js';
import type { FeatureDeps } from '../feature-deps.js';
import type { PowerIntent, PowerVerb } from './machine-operations.js';
import { WatchLimitError } from './machine-watcher.js';
import { alreadyToldNotDone } from './request-receipts.js';
import { redrawSupersededCards } from './superseded-cards.js';

/**
 * How long the record of the call's answer (and of the card) is tried again while the database does
 * not answer: a blip of a minute or two is ridden out by the request itself, and past it the recovery
 * follows the machine (without its card, whose place only this replica knew).
 */
const RECORD_RETRIES_MS = [500, 1000, 2000, 4000, 8000, 15_000, 30_000, 30_000, 30_000];

/** What the request knows once Paperspace answered and the card is placed. */
interface SentRequest {
  machine: Machine;
  eventId: string | null;
  place: FollowUpPlace & { threadTs?: string };
}

export type IntentSettlement =
  /** The watch follows the machine from here. */
  | { kind: 'watching' }
  /** The person has no free watch: the request was sent unwatched. */
  | { kind: 'refused'; error: WatchLimitError }
  /** Nothing was recorded (the watch was taken over by a newer operation meanwhile). */
  | { kind: 'ended' };

export interface RecordedPowerIntent {
  /** Handed to the power operation, which records it before the call. */
  hooks: PowerIntent;
  /** False once the record found the person without a free watch: the request goes out unwatched. */
  readonly watched: boolean;
  /** Records what the call answered and where the card went; never throws. */
  settle(sent: SentRequest): Promise<IntentSettlement>;
}

export function recordPowerIntent(request: {
  deps: FeatureDeps<'watches', 'now' | 'watcher' | 'redrawRow'>;
  web: WebClient;
  user: { teamId: string; userId: string };
  machine: Machine;
  verb: PowerVerb;
  /** Where the card is meant to go: a clicked card's place is known (`ts`), a new one's is not yet. */
  card: { channel: string; ts?: string; threadTs?: string };
  /** The request's receipt, ended in the same transaction as the intent is stored. */
  receipt?: RequestReceipt;
}): RecordedPowerIntent {
  const { deps, user, machine, verb, card, receipt } = request;
  let watch: CreatedWatch | undefined;
  let refused: WatchLimitError | undefined;
  const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

  return {
    get watched() {
      return refused === undefined;
    },
    hooks: {
      async record(targetState: WaitableState) {
        const receivedId = await receipt?.stored;
        try {
          watch = await deps.watcher.watch({
            user,
            machineId: machine.id,
            machineName: machine.name,
            targetState,
            channel: card.channel,
            ...(card.ts === undefined ? {} : { messageTs: card.ts }),
            ...(card.threadTs ? { threadTs: card.threadTs } : {}),
            initialState: machine.state,
            operation: verb,
            pending: true,
            ...(receivedId === undefined ? {} : { receivedId }),
          });
        } catch (error) {
          if (error instanceof ReceiptTakenError)
            throw alreadyToldNotDone({ operation: verb, subject: machine.name });
          // Over the person's limit the request is still sent, unwatched, as it always was; they are told.
          if (!(error instanceof WatchLimitError)) throw error;
          refused = error;
          await receipt?.beforeCall();
        }
      },
      async abandon() {
        if (watch === undefined) return;
        await deps.store.watches
          .complete(watch.id, { status: 'failed', at: deps.now(), detail: `Paperspace refused the ${verb}` })
          .catch((error: unknown) => {
            // Left pending, the recovery finds the machine unmoved and tells the person it did not happen.
            deps.logger.warn(
              { error: describeError(error) },
              'could not drop the intent of a refused request',
            );
          });
      },
    },

    async settle({ machine: after, eventId, place }) {
      if (refused !== undefined) return { kind: 'refused', error: refused };
      if (watch === undefined) return { kind: 'ended' };
      const at = deps.now();
      const sent = {
        at,
        lastState: after.state,
        eventId,
        channel: place.channel,
        ...(place.ts !== undefined ? { messageTs: place.ts } : {}),
        ...(place.threadTs ? { threadTs: place.threadTs } : {}),
        supersedes: `superseded by a newer ${verb} of the machine`,
      };
      for (let attempt = 0; ; attempt++) {
        try {
          const { recorded, superseded } = await deps.store.watches.markSent(watch.id, sent);
          await redrawSupersededCards(request.web, deps, {
            superseded,
            machine: after,
            operation: verb,
            slackUserId: user.userId,
            at,
          });
          return recorded ? { kind: 'watching' } : { kind: 'ended' };
        } catch (error) {
          const delay = RECORD_RETRIES_MS[attempt];
          if (delay === undefined) {
            deps.logger.error(
              { watchId: watch.id, error: describeError(error) },
              'could not record that a power request was sent; the recovery will follow the machine',
            );
            return { kind: 'watching' };
          }
          await wait(delay);
        }
      }
    },
  };
}
