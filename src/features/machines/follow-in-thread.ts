// A power button on a message that lists several machines (a cost alert, a reminder, a team digest) is
// not on that machine's card: the watch replies in the message's thread, and the message itself keeps
// what the click handler wrote on the machine's row. The watch is stored as the request's intent
// before the call (power-intent.ts), as a card's is: a replica lost between the call and the record
// leaves the stop for another replica to follow, instead of a machine stopped and never reported.
import type { WebClient } from '@slack/web-api';
import type { Machine } from '../../paperspace/schemas.js';
import type { ButtonClick } from '../../slack/button-click.js';
import type { FeatureDeps } from '../feature-deps.js';
import type { PowerOutcome, PowerVerb } from './machine-operations.js';
import { type IntentSettlement, type RecordedPowerIntent, recordPowerIntent } from './power-intent.js';

export interface ThreadIntent {
  /** Handed to the power operation, which records the watch before the call. */
  hooks: RecordedPowerIntent['hooks'];
  /** False once the record found the clicker without a free watch: the request goes out unwatched. */
  readonly watched: boolean;
  /** Lets the watch follow the machine, once the clicked message shows the request. */
  follow(outcome: Extract<PowerOutcome, { kind: 'requested' }>): Promise<IntentSettlement>;
}

export function intentInClickedThread(
  deps: FeatureDeps<'watches', 'now' | 'watcher' | 'redrawRow'>,
  web: WebClient,
  click: Pick<ButtonClick, 'user' | 'channelId' | 'message'>,
  machine: Machine,
  verb: PowerVerb,
): ThreadIntent {
  const place = {
    channel: click.channelId ?? click.user.userId,
    ...(click.message === undefined ? {} : { threadTs: click.message.ts }),
  };
  const intent = recordPowerIntent({ deps, web, user: click.user, machine, verb, card: place });
  return {
    hooks: intent.hooks,
    get watched() {
      return intent.watched;
    },
    follow: (outcome) =>
      intent.settle({
        machine: outcome.machine,
        eventId: outcome.eventId,
        place: { ...place, ts: undefined },
      }),
  };
}
