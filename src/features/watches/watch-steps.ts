// What one poll does with one watch, given the machine as the person's list showed it: end it (done,
// failed, gone, timed out), record a change of state, or leave it for the next tick. A machine is
// shown (one more call, for its event log) only when the watch may have failed (it settled in a state
// it was not going to, or is missing from the list), or reached its target unseen by the last tick
// (for the real moment it got there). A watch's own event (v1) is read at its first poll and then once
// every few ticks, not every tick.

import { isSettled, targetReached } from '../../domain/machine-states.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceNotFoundError } from '../../paperspace/errors.js';
import type { Machine, MachineEvent } from '../../paperspace/schemas.js';
import { phaseOf } from '../../scheduler/phase.js';
import type { Store } from '../../store/store.js';
import type { FinishedWatchStatus, TimelineEntry, Watch } from '../../store/watch-types.js';
import type { JobResources } from '../job-needs.js';
import { failedEventSince, finishedAt } from './event-log.js';
import type { PersonPollTroubles } from './person-poll-troubles.js';
import { outcomeDetail, type WatchOutcome } from './watch-messages.js';
import type { WatchOutcomes } from './watch-outcomes.js';
import type { WatchReporter } from './watch-reporter.js';

export interface WatchStepsDeps extends Pick<JobResources, 'logger' | 'now' | 'pollIntervalMs'> {
  store: Pick<Store, 'watches'>;
  reporter: WatchReporter;
  outcomes: WatchOutcomes;
  troubles: PersonPollTroubles;
}

export interface WatchSteps {
  /** One poll of `watch`; `listed` is its machine as the person's list showed it, if it was there. */
  advance(
    watch: Watch,
    listed: Machine | undefined,
    client: PaperspaceClient,
    userKey: string,
    /** The poll's deadline: the calls made for this watch end when it does. */
    signal?: AbortSignal,
  ): Promise<void>;
  /** Ends the watch as timed out if its deadline has passed. */
  timeOutIfDue(watch: Watch, userKey: string, machine?: Machine): Promise<void>;
  /** Ends the watch with `outcome`, once across replicas, and has its outcome posted. */
  finish(watch: Watch, outcome: WatchOutcome, machine: Machine | undefined): Promise<void>;
  /** Forgets what was remembered of watches this replica no longer polls (finished or taken elsewhere). */
  forgetAllBut(polled: ReadonlySet<string>): void;
}

/**
 * A watch's event (v1) is read at its first poll, then once per this many poll intervals (each watch
 * at a phase of its own, so the second read comes sooner) until the target is reached: a refusal (no
 * capacity) is usually known at once, and a later failure ends the watch within this many ticks, while
 * a normal start costs about one list per person per tick rather than a list plus one event per
 * watched machine.
 */
const EVENT_FOLLOW_EVERY_TICKS = 6;

/**
 * A watch this replica polled within this many intervals ends from the list alone when it shows the
 * machine there. Two would do on a quiet replica (polled last tick); the third keeps a person whose
 * poll was dropped or skipped for one interval under load from costing every completion a show, one
 * more call and one more API latency, just when the API is busiest.
 */
const SEEN_LATELY_INTERVALS = 3;

type Shown =
  | { kind: 'machine'; machine: Machine & { events: MachineEvent[] } }
  | { kind: 'gone' }
  | { kind: 'error' };

export function createWatchSteps(deps: WatchStepsDeps): WatchSteps {
  const { store, logger, troubles } = deps;
  /** When each watch's event was last read by this replica; a watch new to it is read at once. */
  const eventReadAt = new Map<string, number>();
  /** When this replica last polled each watch: a watch it polled last tick got where it is since then. */
  const polledAt = new Map<string, number>();
  const eventFollowMs = EVENT_FOLLOW_EVERY_TICKS * deps.pollIntervalMs;

  /**
   * Whether this poll reads the watch's event: its first here, then once per eventFollowMs, each watch
   * at a phase of its own within that period. Without the phase, watches made together (a start of
   * many machines, a replica taking over a thousand people) would keep reading their events in the
   * same tick: most of the period's calls in one tick and none in the others, and the calls that tick's
   * deadline cut off made again.
   */
  function eventDue(watch: Watch, now: number): boolean {
    const last = eventReadAt.get(watch.id);
    if (last === undefined) {
      // Read now (a refusal is usually known at once); the next read comes within one period.
      eventReadAt.set(watch.id, now - phaseOf(watch.id, eventFollowMs));
      return true;
    }
    if (now - last < eventFollowMs) return false;
    eventReadAt.set(watch.id, now);
    return true;
  }

  async function finish(
    watch: Watch,
    outcome: WatchOutcome,
    machine: Machine | undefined,
    timeline: TimelineEntry[] = watch.timeline,
  ): Promise<void> {
    const now = deps.now();
    const report = { outcome, machine: machine ?? null, timeline };
    const won = await store.watches.complete(watch.id, {
      status: statusOf(outcome),
      at: now,
      detail: outcomeDetail(outcome),
      ...(machine ? { lastState: machine.state } : {}),
      timeline,
      report: deps.outcomes.stored(report, now),
    });
    // Another replica (or an earlier tick that crashed after completing) already finished it; if its
    // post never happened, the report is still due and outcomes.retryDue() posts it.
    if (!won) return;
    logger.info({ watchId: watch.id, machineId: watch.machineId, status: outcome.status }, 'watch finished');
    deps.outcomes.dispatch(watch, report);
  }

  async function timeOutIfDue(watch: Watch, userKey: string, machine?: Machine): Promise<void> {
    if (deps.now() < watch.deadlineAt) return;
    const lastError = troubles.lastError(userKey);
    await finish(
      watch,
      {
        status: 'timed_out',
        lastState: machine?.state ?? watch.lastState,
        ...(lastError === undefined ? {} : { lastError }),
      },
      machine,
    );
  }

  async function show(
    client: PaperspaceClient,
    watch: Watch,
    userKey: string,
    signal: AbortSignal | undefined,
  ): Promise<Shown> {
    try {
      const machine = await client.machines.show(watch.machineId, callOptions(signal));
      return { kind: 'machine', machine };
    } catch (error) {
      if (error instanceof PaperspaceNotFoundError) return { kind: 'gone' };
      troubles.failed(userKey, error);
      logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not show a watched machine');
      return { kind: 'error' };
    }
  }

  /** The watched operation's event, or undefined when it cannot be read this tick (tried again next). */
  async function followEvent(
    client: PaperspaceClient,
    watch: Watch,
    userKey: string,
    signal: AbortSignal | undefined,
  ): Promise<MachineEvent | undefined> {
    try {
      return await client.machines.event(watch.eventId ?? '', callOptions(signal));
    } catch (error) {
      troubles.failed(userKey, error, { quote: false });
      logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not read the event of a watch');
      return undefined;
    }
  }

  async function advance(
    watch: Watch,
    listed: Machine | undefined,
    client: PaperspaceClient,
    userKey: string,
    signal?: AbortSignal,
  ): Promise<void> {
    let machine = listed;
    let events: MachineEvent[] | undefined;
    if (machine === undefined) {
      // Missing from the list: destroyed, access taken away, or (rarely) a list that lagged.
      const shown = await show(client, watch, userKey, signal);
      if (shown.kind === 'gone') return finish(watch, { status: 'gone' }, undefined);
      if (shown.kind === 'error') return timeOutIfDue(watch, userKey);
      machine = shown.machine;
      events = shown.machine.events;
    }

    const now = deps.now();
    const changed = machine.state !== watch.lastState;
    const reached = targetReached(machine.state, watch.targetState);
    const timeline = changed ? [...watch.timeline, { state: machine.state, at: now }] : watch.timeline;

    // The operation's own event says it failed even when the machine's state never moved (a start
    // refused for want of capacity leaves it off, as it was): no need to wait for the deadline.
    // Read only now and then (eventDue): the list already says whether the machine moves.
    if (!reached && watch.eventId !== null && client.capabilities.followEvents && eventDue(watch, now)) {
      const event = await followEvent(client, watch, userKey, signal);
      // An event that could not be read is tried again at the next poll, not a whole period later.
      if (event === undefined) eventReadAt.delete(watch.id);
      if (event !== undefined && isFailed(event)) {
        return finish(watch, failedOutcome(event, machine), machine, timeline);
      }
    }

    const polledLately =
      now - (polledAt.get(watch.id) ?? Number.NEGATIVE_INFINITY) <=
      SEEN_LATELY_INTERVALS * deps.pollIntervalMs;
    polledAt.set(watch.id, now);
    if (reached && events === undefined && polledLately) {
      // The list that shows the machine there ends the watch, without a show for the event log: that
      // cost every completion a second call against the person's rate limit and a second API latency.
      // What the log added was the moment the operation finished; polled lately, the machine got
      // there since, so the reply's "took" is at most a few poll intervals long. A watch this replica
      // has not polled lately (its first poll, a restart, a takeover from a replica that died) may
      // have got there long ago: its show below reads the real moment. A machine at its target is
      // not a failed operation.
      return finish(
        watch,
        { status: 'done', state: machine.state, elapsedMs: Math.max(0, now - watch.createdAt) },
        machine,
        timeline,
      );
    }

    if (reached || (changed && isSettled(machine.state))) {
      if (events === undefined) {
        const shown = await show(client, watch, userKey, signal);
        if (shown.kind === 'gone') return finish(watch, { status: 'gone' }, undefined);
        // Only the event log is taken from it: decisions stay with the state the list showed, so the
        // timeline and the outcome agree.
        if (shown.kind === 'machine') events = shown.machine.events;
        else if (now < watch.deadlineAt) {
          // Without the event log a failed operation cannot be told from a finished one: look again
          // next tick (the change is not recorded, so it is still a change then).
          return;
        }
      }
      const failed = events && failedEventSince(events, watch.createdAt);
      if (failed) return finish(watch, failedOutcome(failed, machine), machine, timeline);
      if (reached) {
        const at = events ? finishedAt(events, watch.createdAt, now) : now;
        const finalTimeline = changed ? [...watch.timeline, { state: machine.state, at }] : timeline;
        return finish(
          watch,
          { status: 'done', state: machine.state, elapsedMs: Math.max(0, at - watch.createdAt) },
          machine,
          finalTimeline,
        );
      }
    }

    if (now >= watch.deadlineAt) return timeOutIfDue(watch, userKey, machine);
    if (!changed) return;
    const recorded = await store.watches.updateProgress(watch.id, { lastState: machine.state, timeline });
    if (recorded) await deps.reporter.progress(watch, machine, timeline);
  }

  return {
    advance,
    timeOutIfDue,
    finish,
    forgetAllBut(polled) {
      for (const id of eventReadAt.keys()) if (!polled.has(id)) eventReadAt.delete(id);
      for (const id of polledAt.keys()) if (!polled.has(id)) polledAt.delete(id);
    },
  };
}

/** Polls retry at the next tick, so the client's own quick retries (and Retry-After waits) are off. */
function callOptions(signal: AbortSignal | undefined) {
  return { maxRetries: 0, ...(signal === undefined ? {} : { signal }) };
}

function isFailed(event: MachineEvent): boolean {
  return event.state === 'error' || (event.errorMsg ?? '').trim() !== '';
}

/** A failed operation, told from its event: what failed, Paperspace's reason, where the machine is. */
function failedOutcome(event: MachineEvent, machine: Machine): WatchOutcome {
  return {
    status: 'failed',
    operation: event.name,
    message: (event.errorMsg?.trim() || `it ended in state "${event.state}"`).replace(/[.\s]+$/, ''),
    state: machine.state,
  };
}

function statusOf(outcome: WatchOutcome): FinishedWatchStatus {
  return outcome.status === 'stopped' || outcome.status === 'not_sent' ? 'failed' : outcome.status;
}
