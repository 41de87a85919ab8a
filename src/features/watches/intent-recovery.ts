// Settling the intents no replica finished recording: a start, stop or restart whose watch was stored
// before the call to Paperspace (machines/power-intent.ts), and whose answer was never recorded because
// the replica sending it died, or lost its database, in between. Any replica's tick finds such an
// intent once it is older than INTENT_GRACE_MS, takes it (once across replicas), and asks Paperspace
// with the person's key whether the request went out: the machine's state, and on v1 its event log.
// Went out: the watch is followed from here, as if recorded at once. Did not: the watch ends, and the
// person is told in a sentence naming the machine (watch-messages.ts, `not_sent`).
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import { PaperspaceNotFoundError } from '../../paperspace/errors.js';
import type { MachineWithEvents } from '../../paperspace/schemas.js';
import type { Store } from '../../store/store.js';
import type { Watch } from '../../store/watch-types.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { POWER_CALL_MS } from '../machines/machine-operations.js';
import { eventsSince } from './event-log.js';
import type { WatchSteps } from './watch-steps.js';

/**
 * How old an intent must be before it is settled here. Longer than the call may take (POWER_CALL_MS),
 * so a request still being sent is never judged unsent, and than a card usually waits in its channel's
 * lane (about a second a card, 20 starts in a channel wait 20 s) before the replica records it.
 */
export const INTENT_GRACE_MS = POWER_CALL_MS + 5000;
/** Intents settled per tick; the rest come next tick. */
const INTENTS_PER_TICK = 50;

/** What Paperspace shows about an intent's request. */
type IntentVerdict = { sent: true; eventId: string | null } | { sent: false };

/** States a machine a start (or restart) was sent to passes through, or rests in. */
const BOOTING = ['starting', 'restarting', 'provisioning', 'serviceready', 'ready'];
const STOPPING = ['stopping', 'off'];

/**
 * Whether the operation of an intent recorded at `recordedAt` went out, from the machine as it is now.
 * An event of that operation since the intent proves it (v1; the contract's API lists none). Otherwise
 * the state decides: a start went out if the machine boots or is up, a stop if it stops or is off.
 * A restart leaves a machine where it was once done: without its event it counts as sent, and the
 * watch, finding the machine up, says so, rather than tell the person of a restart that may have
 * happened that it did not.
 */
export function intentVerdict(
  intent: Pick<Watch, 'operation' | 'createdAt'>,
  machine: Pick<MachineWithEvents, 'state' | 'events'>,
): IntentVerdict {
  const event = eventsSince(machine.events ?? [], intent.createdAt).find(
    (candidate) => candidate.name === intent.operation,
  );
  if (event !== undefined) return { sent: true, eventId: event.handle };
  switch (intent.operation) {
    case 'start':
      return BOOTING.includes(machine.state) ? { sent: true, eventId: null } : { sent: false };
    case 'stop':
      return STOPPING.includes(machine.state) ? { sent: true, eventId: null } : { sent: false };
    default:
      return { sent: true, eventId: null };
  }
}

export interface IntentRecoveryDeps {
  store: Pick<Store, 'watches'>;
  vault: Pick<KeyVault, 'credentials'>;
  clients: PaperspaceClientFactory;
  /** Ends a watch once across replicas and posts its outcome (the poller's steps). */
  steps: Pick<WatchSteps, 'finish'>;
  logger: Logger;
  now: () => number;
}

/** One tick's recovery: settles the intents past their grace that this replica takes. */
export function createIntentRecovery(deps: IntentRecoveryDeps): { tick(): Promise<void> } {
  const { store, logger } = deps;

  const settle = async (intent: Watch) => {
    const now = deps.now();
    if (
      intent.pendingSince === null ||
      !(await store.watches.claimIntent(intent.id, intent.pendingSince, now))
    )
      return;
    const credentials = await deps.vault.credentials(intent);
    if (credentials === undefined) {
      const reason = 'your Paperspace key was unlinked before I could tell whether the request went out';
      return deps.steps.finish(intent, { status: 'stopped', reason }, undefined);
    }
    let machine: MachineWithEvents;
    try {
      machine = await deps.clients.forCredentials(credentials).machines.show(intent.machineId);
    } catch (error) {
      if (error instanceof PaperspaceNotFoundError)
        return deps.steps.finish(intent, { status: 'gone' }, undefined);
      // Taken until the next grace: asked again then.
      logger.warn({ watchId: intent.id, error: describeError(error) }, 'could not settle a power intent yet');
      return;
    }
    const verdict = intentVerdict(intent, machine);
    if (!verdict.sent) {
      const operation = intent.operation ?? 'request';
      return deps.steps.finish(intent, { status: 'not_sent', operation, state: machine.state }, machine);
    }
    await store.watches.markSent(intent.id, { at: now, lastState: machine.state, eventId: verdict.eventId });
    logger.info(
      { watchId: intent.id, machineId: intent.machineId },
      'followed a power request found unrecorded',
    );
  };

  return {
    async tick() {
      const due = await store.watches.pendingIntents(deps.now() - INTENT_GRACE_MS, INTENTS_PER_TICK);
      // One at a time: intents are left only by a replica lost mid-request, a few at most.
      for (const intent of due) {
        await settle(intent).catch((error: unknown) => {
          logger.error(
            { watchId: intent.id, error: describeError(error) },
            'could not settle a power intent',
          );
        });
      }
    },
  };
}
