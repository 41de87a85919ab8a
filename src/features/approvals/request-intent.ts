// The watch of an approved start, stop or restart, stored before the call as its intent (as a card's
// power request stores it: machines/power-intent.ts). It is the watch of the request's first copy, the
// one that takes over from the machine's older watches, followed by whoever sees that copy: a replica
// lost between the approved call and the card in that copy's thread leaves it for the recovery, which
// follows the machine and replies in that thread.
import type { ReadableRequest } from '../../store/approval-requests.js';
import { recordPowerIntent } from '../machines/power-intent.js';
import type { Decider } from './decider.js';
import type { IntentFor } from './request-action.js';

export function firstCopyIntent(decider: Decider, request: ReadableRequest): IntentFor | undefined {
  const [first] = request.messages;
  if (first === undefined || request.kind === 'create') return undefined;
  const watcher =
    first.to === 'requester' ? { teamId: request.teamId, userId: request.requesterId } : decider.user;
  return (machine, verb) =>
    recordPowerIntent({
      deps: decider.deps,
      web: decider.web,
      user: watcher,
      machine,
      verb,
      card: { channel: first.channel, threadTs: first.ts },
    });
}
