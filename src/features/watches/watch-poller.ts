// One poll of every active watch this replica holds. Watches are grouped by the person whose key
// polls: one getMachines call answers all of that person's watches (more only when their account
// spans several pages), and a machine is shown (one more call, for its event log) only when the
// watch may have failed (machine settled in a state it was not going to, or missing from the list),
// or it reached its target unseen by the last tick (for the real moment it got there). A machine the
// list shows at its target, polled here last tick, ends the watch with no further call.
// A watch's own event (v1) is read at its first poll and then once every few ticks, not every tick.
// The same list, made once per person per tick under the person's lease, is what other features'
// machine checks read (the cost guard); a linked person without watches is listed only when one of
// those checks is due.
import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { MACHINE_LIST_PAGE_SIZE } from '../../paperspace/constants.js';
import {
  PaperspaceError,
  PaperspaceNotFoundError,
  PaperspaceRateLimitError,
} from '../../paperspace/errors.js';
import type { Machine, MachineEvent } from '../../paperspace/schemas.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import type { PersonMachineCheck } from '../../scheduler/job.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PolledWatch } from '../../store/watch-leases.js';
import type { FinishedWatchStatus, TimelineEntry, Watch } from '../../store/watch-types.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { failedEventSince, finishedAt } from './event-log.js';
import { outcomeDetail, type WatchOutcome } from './watch-messages.js';
import type { WatchOutcomes } from './watch-outcomes.js';
import type { WatchReporter } from './watch-reporter.js';

export interface WatchPollerDeps {
  store: Pick<Store, 'watches' | 'watchLeases'>;
  clients: PaperspaceClientFactory;
  /** Updates the cards of watches under way. */
  reporter: WatchReporter;
  /** Posts the outcome of a watch that ends. */
  outcomes: WatchOutcomes;
  logger: Logger;
  now: () => number;
  /** This replica, as named in the watches' leases. */
  owner: string;
  /** How long a claim on a person lasts; renewed every tick. */
  leaseMs: number;
  pollIntervalMs: number;
  /**
   * People polled at the same time (POLL_CONCURRENCY). Each costs one getMachines call, so a tick lasts
   * about ceil(people / concurrency) API latencies: sized for the API, not for the bot.
   */
  concurrency: number;
  /**
   * Other features' checks of a person's machines (the cost guard), handed the list this poll makes:
   * a person with watches costs no extra call, and one without is listed only when a check is due.
   */
  checks?: readonly PersonMachineCheck[];
}

export interface WatchPoller {
  tick(): Promise<void>;
}

/** States a machine rests in. Settling in one that is not the target is when an operation may have failed. */
const RESTING_STATES = new Set(['off', 'serviceready', 'ready']);

/**
 * `ready` is `serviceready` plus a running agent (contract, States), so a wait for serviceready is
 * over once the machine is ready too: a desktop passes through serviceready faster than one tick.
 */
function satisfies(state: string, target: string): boolean {
  return state === target || (target === 'serviceready' && state === 'ready');
}
/** A 429 without Retry-After pauses the user for the poll interval, doubled per repeat, up to this. */
const MAX_RATE_LIMIT_PAUSE_MS = 5 * 60_000;
const WATCHES_AT_ONCE = 4;
/**
 * A watch's event (v1) is read at its first poll, then once per this many poll intervals until the
 * target is reached: a refusal (no capacity) is usually known at once, and a later failure ends the
 * watch within this many ticks, while a normal start costs about one list per person per tick
 * rather than a list plus one event per watched machine.
 */
const EVENT_FOLLOW_EVERY_TICKS = 6;

const UNLINKED = 'your Paperspace key was unlinked, so there is no key left to check it with.';

type Shown =
  | { kind: 'machine'; machine: Machine & { events: MachineEvent[] } }
  | { kind: 'gone' }
  | { kind: 'error' };

export function createWatchPoller(deps: WatchPollerDeps): WatchPoller {
  const { store, logger } = deps;
  /** Users answered with 429, paused until `until`. */
  const pauses = new Map<string, { until: number; strikes: number }>();
  /** The last failed poll per user, quoted if their watch then times out. */
  const lastErrors = new Map<string, string>();
  /** When each watch's event was last read by this replica; a watch new to it is read at once. */
  const eventReadAt = new Map<string, number>();
  /** When this replica last polled each watch: a watch it polled last tick got where it is since then. */
  const polledAt = new Map<string, number>();
  const eventFollowMs = EVENT_FOLLOW_EVERY_TICKS * deps.pollIntervalMs;

  /** Whether this poll reads the watch's event: its first here, then once per eventFollowMs. */
  function eventDue(watch: Watch, now: number): boolean {
    const last = eventReadAt.get(watch.id);
    if (last !== undefined && now - last < eventFollowMs) return false;
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

  /**
   * Paperspace limits calls per API key: a 429 on any call pauses that person's polling for as long as
   * it asks (Retry-After), or for the poll interval doubled per repeat. Other people keep their pace.
   */
  function pauseIfRateLimited(userKey: string, error: unknown): void {
    if (!(error instanceof PaperspaceRateLimitError)) return;
    const strikes = (pauses.get(userKey)?.strikes ?? 0) + 1;
    const wait = error.retryAfterMs ?? Math.min(deps.pollIntervalMs * 2 ** strikes, MAX_RATE_LIMIT_PAUSE_MS);
    pauses.set(userKey, { until: deps.now() + wait, strikes });
  }

  async function timeOutIfDue(watch: Watch, userKey: string, machine?: Machine): Promise<void> {
    if (deps.now() < watch.deadlineAt) return;
    const lastError = lastErrors.get(userKey);
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

  async function show(client: PaperspaceClient, watch: Watch, userKey: string): Promise<Shown> {
    try {
      const machine = await client.machines.show(watch.machineId, { maxRetries: 0 });
      return { kind: 'machine', machine };
    } catch (error) {
      if (error instanceof PaperspaceNotFoundError) return { kind: 'gone' };
      pauseIfRateLimited(userKey, error);
      lastErrors.set(userKey, messageOf(error));
      logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not show a watched machine');
      return { kind: 'error' };
    }
  }

  /** The watched operation's event, or undefined when it cannot be read this tick (tried again next). */
  async function followEvent(
    client: PaperspaceClient,
    watch: Watch,
    userKey: string,
  ): Promise<MachineEvent | undefined> {
    try {
      return await client.machines.event(watch.eventId ?? '', { maxRetries: 0 });
    } catch (error) {
      pauseIfRateLimited(userKey, error);
      logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not read the event of a watch');
      return undefined;
    }
  }

  async function advance(
    watch: Watch,
    listed: Machine | undefined,
    client: PaperspaceClient,
    userKey: string,
  ): Promise<void> {
    let machine = listed;
    let events: MachineEvent[] | undefined;
    if (machine === undefined) {
      // Missing from the list: destroyed, access taken away, or (rarely) a list that lagged.
      const shown = await show(client, watch, userKey);
      if (shown.kind === 'gone') return finish(watch, { status: 'gone' }, undefined);
      if (shown.kind === 'error') return timeOutIfDue(watch, userKey);
      machine = shown.machine;
      events = shown.machine.events;
    }

    const now = deps.now();
    const changed = machine.state !== watch.lastState;
    const reached = satisfies(machine.state, watch.targetState);
    const timeline = changed ? [...watch.timeline, { state: machine.state, at: now }] : watch.timeline;

    // The operation's own event says it failed even when the machine's state never moved (a start
    // refused for want of capacity leaves it off, as it was): no need to wait for the deadline.
    // Read only now and then (eventDue): the list already says whether the machine moves.
    if (!reached && watch.eventId !== null && client.capabilities.followEvents && eventDue(watch, now)) {
      const event = await followEvent(client, watch, userKey);
      // An event that could not be read is tried again at the next poll, not a whole period later.
      if (event === undefined) eventReadAt.delete(watch.id);
      if (event !== undefined && isFailed(event)) {
        return finish(watch, failedOutcome(event, machine), machine, timeline);
      }
    }

    const polledLastTick =
      now - (polledAt.get(watch.id) ?? Number.NEGATIVE_INFINITY) <= 2 * deps.pollIntervalMs;
    polledAt.set(watch.id, now);
    if (reached && events === undefined && polledLastTick) {
      // The list that shows the machine there ends the watch, without a show for the event log: that
      // cost every completion a second call against the person's rate limit and a second API latency.
      // What the log added was the moment the operation finished; polled last tick, the machine got
      // there since, so the reply's "took" is at most one poll interval long. A watch this replica
      // did not poll last tick (its first poll, a restart, a takeover from a replica that died) may
      // have got there long ago: its show below reads the real moment. A machine at its target is
      // not a failed operation.
      return finish(
        watch,
        { status: 'done', state: machine.state, elapsedMs: Math.max(0, now - watch.createdAt) },
        machine,
        timeline,
      );
    }

    if (reached || (changed && RESTING_STATES.has(machine.state))) {
      if (events === undefined) {
        const shown = await show(client, watch, userKey);
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

  /**
   * Polls one person: `claimed` are their active watches as the lease handed them out. The watches
   * themselves are read only once the person's machine list is in (or when the poll cannot go on),
   * so a tick holds whole watches for moments, not for its whole length. A watch made after the
   * claim waits for the next tick.
   */
  async function pollUser(user: SlackUser, claimed: readonly PolledWatch[]): Promise<void> {
    const userKey = `${user.teamId}/${user.userId}`;
    const checks = deps.checks ?? [];
    const due = checks.some((check) => check.due(user, deps.now()));
    if (claimed.length === 0 && !due) return;
    // In the lease's order (by deadline), as the person's completions are posted.
    const order = new Map(claimed.map((watch, index) => [watch.id, index]));
    const readWatches = async () =>
      claimed.length === 0
        ? []
        : (await store.watches.listActive({ teamId: user.teamId, userId: user.userId }))
            .filter((watch) => order.has(watch.id))
            .sort((a, b) => (order.get(a.id) ?? 0) - (order.get(b.id) ?? 0));
    const timeOutAll = async () =>
      forEachConcurrently(await readWatches(), WATCHES_AT_ONCE, (watch) =>
        guarded(watch, () => timeOutIfDue(watch, userKey)),
      );

    // Checked before the key is opened: a paused person costs neither a decryption nor a call.
    if ((pauses.get(userKey)?.until ?? 0) > deps.now()) return timeOutAll();

    let client: PaperspaceClient | undefined;
    try {
      client = await deps.clients.forUser(user);
    } catch (error) {
      // The vault could not open the key (e.g. VAULT_KEY lost the key that sealed it): the operator
      // can fix that, so the watches wait for it until their deadline.
      lastErrors.set(userKey, 'the linked Paperspace key could not be read');
      logger.error(
        { user: userKey, error: describeError(error) },
        'could not open the key of a watching user',
      );
      return timeOutAll();
    }
    if (client === undefined) {
      return forEachConcurrently(await readWatches(), WATCHES_AT_ONCE, (watch) =>
        guarded(watch, () => finish(watch, { status: 'stopped', reason: UNLINKED }, undefined)),
      );
    }

    let listed: Listed;
    try {
      listed = await listMachines(client, new Set(claimed.map((watch) => watch.machineId)), due);
      pauses.delete(userKey);
      lastErrors.delete(userKey);
    } catch (error) {
      pauseIfRateLimited(userKey, error);
      lastErrors.set(userKey, messageOf(error));
      logger.warn({ user: userKey, error: describeError(error) }, 'could not list the machines of a user');
      return timeOutAll();
    }

    const ready = client;
    await forEachConcurrently(await readWatches(), WATCHES_AT_ONCE, (watch) =>
      guarded(watch, () => advance(watch, listed.watched.get(watch.machineId), ready, userKey)),
    );
    // A list made for the watches alone is handed on too when it holds every machine (one page
    // usually does): the checks then see changes, such as a stop, at the watches' pace for free.
    if (!listed.complete) return;
    for (const check of checks) {
      try {
        await check.check(user, listed.all, ready);
      } catch (error) {
        logger.error(
          { user: userKey, check: check.name, error: describeError(error) },
          'a machine check failed',
        );
      }
    }
  }

  async function guarded(watch: Watch, step: () => Promise<void>): Promise<void> {
    try {
      await step();
    } catch (error) {
      logger.error(
        { watchId: watch.id, error: describeError(error) },
        'a watch step failed; retrying next tick',
      );
    }
  }

  return {
    async tick() {
      const { watches, held } = await store.watchLeases.claimPeople({
        owner: deps.owner,
        now: deps.now(),
        leaseMs: deps.leaseMs,
      });
      // Forget the event reads of watches this replica no longer polls (finished or taken elsewhere).
      const polled = new Set(watches.map((watch) => watch.id));
      for (const id of eventReadAt.keys()) if (!polled.has(id)) eventReadAt.delete(id);
      for (const id of polledAt.keys()) if (!polled.has(id)) polledAt.delete(id);
      const byUser = new Map<string, { user: SlackUser; watches: PolledWatch[] }>();
      // Every held person, watches or not: the machine checks may want the machines of any of them.
      for (const user of held) byUser.set(`${user.teamId}/${user.userId}`, { user, watches: [] });
      for (const watch of watches) {
        const key = `${watch.teamId}/${watch.userId}`;
        const group = byUser.get(key) ?? {
          user: { teamId: watch.teamId, userId: watch.userId },
          watches: [],
        };
        group.watches.push(watch);
        byUser.set(key, group);
      }
      await forEachConcurrently([...byUser.values()], deps.concurrency, (group) =>
        pollUser(group.user, group.watches),
      );
    },
  };
}

interface Listed {
  /** The watched machines that were listed, by id. */
  watched: Map<string, Machine>;
  /** Every machine listed: all of the person's when `complete`. */
  all: Machine[];
  /** The list reached its last page. */
  complete: boolean;
}

/**
 * The watched machines among the user's, one page at a time: the first page is usually all there is,
 * and later pages are read only while a watched machine is still missing, or when `whole` asks for
 * every machine (a machine check is due).
 */
async function listMachines(
  client: PaperspaceClient,
  wanted: ReadonlySet<string>,
  whole: boolean,
): Promise<Listed> {
  const found = new Map<string, Machine>();
  const all: Machine[] = [];
  const seen = new Set<string>();
  for (let skip = 0; ; skip += MACHINE_LIST_PAGE_SIZE) {
    // Polls retry at the next tick, so the client's own quick retries (and Retry-After waits) are off.
    const page = await client.machines.list({ limit: MACHINE_LIST_PAGE_SIZE, skip }, { maxRetries: 0 });
    let fresh = 0;
    for (const machine of page) {
      if (seen.has(machine.id)) continue;
      seen.add(machine.id);
      fresh += 1;
      all.push(machine);
      if (wanted.has(machine.id)) found.set(machine.id, machine);
    }
    // A short page is the last one; a page of machines already seen means the API ignores skip.
    const last = page.length < MACHINE_LIST_PAGE_SIZE || fresh === 0;
    if (last || (!whole && found.size === wanted.size)) return { watched: found, all, complete: last };
  }
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
  return outcome.status === 'stopped' ? 'failed' : outcome.status;
}

function messageOf(error: unknown): string {
  return error instanceof PaperspaceError ? error.message : 'an unexpected error (logged)';
}
