// Polls show until a machine reaches a state. Unlike the public clients this replaces, it has a
// deadline, survives transient failures, notices a failed operation in the machine's event log,
// and stops at once when its AbortSignal fires.
import type { WaitableState } from './constants.js';
import { PaperspaceConnectionError, PaperspaceNotFoundError, PaperspaceRetryLaterError } from './errors.js';
import type { RequestOptions } from './http.js';
import { waitForStateParamsSchema } from './request-params/machine-params.js';
import { parseRequest } from './request-params/parse-request.js';
import type { MachineEvent, MachineWithEvents } from './schemas.js';
import type { Sleep } from './sleep.js';
import { MachineGoneError, MachineOperationFailedError, WaitTimeoutError } from './wait-errors.js';

const DEFAULT_WAIT_INTERVAL_MS = 5_000;

export interface WaitForStateOptions {
  /** Give up after this long, with a WaitTimeoutError carrying the last machine seen. */
  timeoutMs: number;
  /** Time between polls; default 5000, the real API's own clients' pace. */
  intervalMs?: number;
  /** Cancels the wait, including a poll in flight; the wait rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Called on the first observation and on every state change after it. */
  onChange?: (machine: MachineWithEvents, previousState: string | undefined) => void | Promise<void>;
}

export interface WaitForStateDeps {
  show: (machineId: string, options: RequestOptions) => Promise<MachineWithEvents>;
  sleep: Sleep;
  now: () => number;
}

export async function waitForState(
  deps: WaitForStateDeps,
  machineId: string,
  state: WaitableState,
  options: WaitForStateOptions,
): Promise<MachineWithEvents> {
  const params = parseRequest(
    waitForStateParamsSchema,
    {
      machineId,
      state,
      timeoutMs: options.timeoutMs,
      intervalMs: options.intervalMs ?? DEFAULT_WAIT_INTERVAL_MS,
    },
    'machines.waitForState',
    `wait for this machine to become ${state}`,
  );
  const { signal, onChange } = options;
  signal?.throwIfAborted();

  const startedAt = deps.now();
  const deadline = startedAt + params.timeoutMs;
  let machine: MachineWithEvents | undefined;
  let lastError: unknown;

  for (;;) {
    let delay = params.intervalMs;
    let observed: MachineWithEvents | undefined;
    try {
      // Polls do their own retrying at the poll interval, so the core's quick retries are off.
      observed = await deps.show(params.machineId, { maxRetries: 0, ...(signal ? { signal } : {}) });
      lastError = undefined;
    } catch (error) {
      if (signal?.aborted) throw signal.reason;
      if (error instanceof PaperspaceNotFoundError) throw new MachineGoneError(params.machineId, error);
      if (!isTransient(error)) throw error;
      lastError = error;
      delay = Math.max(delay, retryAfterOf(error) ?? 0);
    }

    if (observed) {
      if (observed.state !== machine?.state) await onChange?.(observed, machine?.state);
      machine = observed;
      if (machine.state === params.state) return machine;
      const failed = findFailedEvent(machine.events, startedAt);
      if (failed) throw new MachineOperationFailedError(machine, failed);
    }

    const remaining = deadline - deps.now();
    if (remaining <= 0) {
      throw new WaitTimeoutError(params.machineId, params.state, params.timeoutMs, machine, lastError);
    }
    await deps.sleep(Math.min(delay, remaining), signal);
    signal?.throwIfAborted();
  }
}

function retryAfterOf(error: unknown): number | undefined {
  return error instanceof PaperspaceRetryLaterError ? error.retryAfterMs : undefined;
}

function isTransient(error: unknown): boolean {
  return error instanceof PaperspaceConnectionError || error instanceof PaperspaceRetryLaterError;
}

function isFailedEvent(event: MachineEvent): boolean {
  return event.state === 'error' || (event.errorMsg ?? '').trim() !== '';
}

function createdAt(event: MachineEvent): number {
  const time = Date.parse(event.dtCreated);
  return Number.isNaN(time) ? Number.NEGATIVE_INFINITY : time;
}

/**
 * The failed event that explains why this wait cannot succeed. The events that concern the wait are
 * those created since it began, plus the newest event of all and any created in the same instant
 * (the operation that prompted the wait was usually requested just before it began, and one request
 * can record several, such as create and the start that follows it). Older failures belong to
 * earlier operations and are ignored. Among the failures that concern it, the oldest is reported:
 * an operation that fails cancels those queued behind it, so later failures are its consequences.
 */
export function findFailedEvent(
  events: readonly MachineEvent[],
  waitStartedAt: number,
): MachineEvent | undefined {
  const newestFirst = [...events].sort((a, b) => Math.sign(createdAt(b) - createdAt(a)) || 0);
  const newest = newestFirst[0];
  if (!newest) return undefined;
  const since = Math.min(waitStartedAt, createdAt(newest));
  return newestFirst.filter((event) => createdAt(event) >= since && isFailedEvent(event)).at(-1);
}
