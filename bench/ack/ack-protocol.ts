// Messages between the ack benchmark and the processes it starts (ack-server-process.ts,
// slack-world-process.ts). Kept apart from those scripts: importing a script would run it.
import type { BenchAccount } from '../support/bench-world.js';

export interface AckServerConfig {
  /** The real bot, or the minimal-work floor (floor-app.ts). */
  kind: 'bot' | 'floor';
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  /** People whose keys the bot's vault holds (the floor keeps them in a map). */
  accounts: BenchAccount[];
}

export interface AckServerReady {
  url: string;
}

/** Asks a server process for the CPU time it has used and the heap it has allocated so far. */
export const USAGE_QUERY = { type: 'usage' } as const;
export interface UsageSoFar {
  /** process.cpuUsage(): user and system CPU time, in microseconds. */
  cpu: NodeJS.CpuUsage;
  /** Bytes allocated on V8's heap since the server started (support/heap-allocation.ts). */
  heapAllocatedBytes: number;
}

export interface SlackWorldConfig {
  latencyMs: number;
}

export interface SlackWorldReady {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  /** A response_url is this followed by the URI-encoded id. */
  responseUrlPrefix: string;
  botUserId: string;
}

/**
 * Waits for a reply through each response_url id, then forgets everything recorded (the next round
 * starts clean): the replies, and the Paperspace requests counted.
 */
export interface AwaitReplies {
  type: 'replies';
  ids: string[];
  timeoutMs: number;
}

/**
 * When each reply arrived at the fake Slack, stamped as it arrived, as performance.timeOrigin +
 * performance.now() (comparable across processes); the ids without a reply by the timeout are absent.
 */
export interface RepliesArrived {
  arrivedAt: Record<string, number>;
  /** Requests the emulator answered since the last AwaitReplies (its request log). */
  paperspaceCalls: number;
}
