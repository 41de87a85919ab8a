// Faults a client must survive: the next N requests failing with a chosen status, a share of all
// requests failing with 500, a per-key rate limit answering 429 with Retry-After, and a key whose
// requests hang (a stuck connection, an incident on one account) until it is let go. They are
// decided before authentication, as a gateway in front of the real API would.
import { type EmulatorError, errorWithStatus, internalError, tooManyRequests } from './errors.js';

export interface FaultOptions {
  /** Share of requests (0 to 1) answered with 500. */
  readonly failRate: number;
  /** Requests allowed per second per key before 429; null for no limit. */
  readonly rateLimit: number | null;
  readonly random: () => number;
  readonly now: () => number;
}

export interface ScheduledFailure {
  /** How many upcoming requests fail. */
  readonly count: number;
  readonly status?: number;
  readonly message?: string;
  /** Only requests to this path (for example `/machines/getMachines`) fail and are counted. */
  readonly path?: string;
  /**
   * Only requests made with this API key fail and are counted: a test aims the failure at one person's
   * call, and another person's request still in flight cannot take it.
   */
  readonly apiKey?: string;
}

export interface Faults {
  /** The failure this request must answer with, or null to serve it normally. */
  check(key: string, path: string): EmulatorError | null;
  failNextRequests(failure: ScheduledFailure): void;
  /** Every request made with `apiKey` from now on is held unanswered until release(apiKey). */
  hang(apiKey: string): void;
  /** Lets the held requests of `apiKey` (and its later ones) be served normally. */
  release(apiKey: string): void;
  /** Resolves when a request made with `key` may be served: at once unless the key hangs. */
  whenServed(key: string): Promise<void>;
  /** Requests held by hang() right now. */
  held(): number;
}

interface Scheduled {
  remaining: number;
  readonly status: number;
  readonly message: string;
  readonly path: string | null;
  readonly apiKey: string | null;
}

export function createFaults(options: FaultOptions): Faults {
  const scheduled: Scheduled[] = [];
  const windows = new Map<string, { second: number; count: number }>();
  /** Hanging keys, each with the release of its held requests. */
  const hanging = new Map<string, { released: Promise<void>; release: () => void; held: number }>();

  function takeScheduled(key: string, path: string): EmulatorError | null {
    const index = scheduled.findIndex(
      (failure) =>
        (failure.path === null || failure.path === path) &&
        (failure.apiKey === null || failure.apiKey === key),
    );
    const failure = scheduled[index];
    if (!failure) return null;
    failure.remaining -= 1;
    if (failure.remaining <= 0) scheduled.splice(index, 1);
    return errorWithStatus(failure.status, failure.message);
  }

  function rateLimited(key: string): EmulatorError | null {
    if (options.rateLimit === null) return null;
    const now = options.now();
    const second = Math.floor(now / 1000);
    const window = windows.get(key);
    if (window?.second !== second) {
      windows.set(key, { second, count: 1 });
      return null;
    }
    window.count += 1;
    if (window.count <= options.rateLimit) return null;
    return tooManyRequests(Math.max(1, Math.ceil(((second + 1) * 1000 - now) / 1000)));
  }

  return {
    check(key, path) {
      const failure = takeScheduled(key, path) ?? rateLimited(key);
      if (failure) return failure;
      if (options.failRate > 0 && options.random() < options.failRate) {
        return internalError('Internal server error (injected by the emulator)');
      }
      return null;
    },
    hang(apiKey) {
      if (hanging.has(apiKey)) return;
      const hang = { released: Promise.resolve(), release: () => {}, held: 0 };
      hang.released = new Promise<void>((resolve) => {
        hang.release = resolve;
      });
      hanging.set(apiKey, hang);
    },
    release(apiKey) {
      hanging.get(apiKey)?.release();
      hanging.delete(apiKey);
    },
    async whenServed(key) {
      const hang = hanging.get(key);
      if (hang === undefined) return;
      hang.held += 1;
      try {
        await hang.released;
      } finally {
        hang.held -= 1;
      }
    },
    held: () => [...hanging.values()].reduce((sum, hang) => sum + hang.held, 0),
    failNextRequests({ count, status = 500, message, path, apiKey }) {
      if (!Number.isInteger(count) || count < 1)
        throw new RangeError(`count must be a positive integer, got ${count}`);
      if (!Number.isInteger(status) || status < 400 || status > 599) {
        throw new RangeError(`status must be an HTTP error status (400-599), got ${status}`);
      }
      scheduled.push({
        remaining: count,
        status,
        message: message ?? `Injected failure with status ${status}`,
        path: path ?? null,
        apiKey: apiKey ?? null,
      });
    },
  };
}
