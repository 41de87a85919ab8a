// Messages between the reports benchmark and the processes it starts (reports-bot-process.ts,
// reports-world-process.ts). Kept apart from those scripts: importing a script would run it.
import type { BenchAccount } from '../support/bench-world.js';

export interface ReportsWorldConfig {
  latencyMs: number;
  /** Requests per second the emulator answers per API key before 429 with Retry-After. */
  perKeyLimit: number;
  /** The people of one Paperspace team, the first its administrator, each with a running machine. */
  team: BenchAccount[];
  /** An individual account with `machines` machines of its own. */
  owner: BenchAccount;
  machines: number;
}

export interface ReportsWorldReady {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  /** A response_url is this followed by the URI-encoded id. */
  responseUrlPrefix: string;
}

/** Waits for a reply through the response_url id, then answers when it arrived (RepliesArrived). */
export interface AwaitReply {
  type: 'reply';
  id: string;
  timeoutMs: number;
}

export interface ReplyArrived {
  /** performance.timeOrigin + performance.now() as it arrived; undefined when none came in time. */
  arrivedAt: number | undefined;
  /** Whether the reply, as the fake Slack took it, was the spend table (blocks), not a text fallback. */
  blocks: boolean;
}

/** Asks how many calls the emulator has answered with 429 so far; answered with a number. */
export const COUNT_RATE_LIMITED = { type: 'count-429' } as const;

export interface ReportsBotConfig {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  /** Everyone whose key the vault holds. */
  accounts: BenchAccount[];
  /** The administrator who sets the digest, and their Paperspace team. */
  admin: BenchAccount;
  channel: string;
}

export interface ReportsBotReady {
  url: string;
}

/** Fires the team digest now; the bot answers DigestPosted once it was built and posted. */
export const POST_DIGEST = { type: 'digest' } as const;
export interface DigestPosted {
  /** From the digest's cron firing to its post being done, in ms. */
  tookMs: number;
  /** The digest's occurrences that ran (1 when it fired). */
  fired: number;
}

/** Starts measuring the event loop's delay afresh; the bot answers `null` once it has. */
export const RESET_STALLS = { type: 'reset-stalls' } as const;
/** Asks for the longest event-loop stall since the last reset. */
export const READ_STALLS = { type: 'read-stalls' } as const;
export interface Stalls {
  /** The longest delay of the event loop, in ms (perf_hooks monitorEventLoopDelay). */
  maxMs: number;
  p99Ms: number;
}
