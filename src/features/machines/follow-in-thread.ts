// A power button on a message that lists several machines (a cost alert, a reminder, a team digest) is
// not on that machine's card: the watch replies in the message's thread, and the message itself keeps
// what the click handler wrote on the machine's row.
import type { WebClient } from '@slack/web-api';
import type { ButtonClick } from '../../slack/button-click.js';
import type { CreatedWatch } from '../../store/watch-types.js';
import type { ListenerWiring } from '../feature-deps.js';
import type { PowerOutcome, PowerVerb } from './machine-operations.js';
import { watchOperation } from './superseded-cards.js';

export function followInClickedThread(
  deps: Pick<ListenerWiring, 'watcher' | 'logger' | 'redrawRow'>,
  web: WebClient,
  click: Pick<ButtonClick, 'user' | 'channelId' | 'message'>,
  outcome: Extract<PowerOutcome, { kind: 'requested' }>,
  verb: PowerVerb,
): Promise<CreatedWatch> {
  return watchOperation(deps, web, outcome.machine, {
    user: click.user,
    targetState: outcome.targetState,
    channel: click.channelId ?? click.user.userId,
    initialState: outcome.machine.state,
    eventId: outcome.eventId,
    ...(click.message === undefined ? {} : { threadTs: click.message.ts }),
    operation: verb,
  });
}
