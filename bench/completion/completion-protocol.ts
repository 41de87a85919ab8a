// Messages between the completion benchmark and the processes it starts (completion-world-process.ts,
// replica-process.ts). Kept apart from those scripts: importing a script would run it.

export interface CompletionWorldConfig {
  people: number;
  /** How long a starting machine takes to reach serviceready. */
  transitionMs: number;
  latencyMs: number;
  /** Every person's card in one channel (a team waiting together), or each in a channel of their own. */
  oneChannel: boolean;
}

export interface CompletionWorldReady {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
}

/**
 * Gives every person one more starting machine, one after another over `spreadMs` (so the machines
 * get there at every phase of the poll interval); answered with RoundAdded once all are added.
 * `hungApiKey`: that person's Paperspace requests hang from now until the next round.
 */
export interface AddRound {
  type: 'round';
  round: number;
  spreadMs: number;
  hungApiKey: string | null;
}

/** One person's machine of a round and the card that watches it (shown to the fake Slack, so it can be updated). */
export interface RoundMachine {
  machineId: string;
  machineName: string;
  channel: string;
  cardTs: string;
  /** When the machine reaches serviceready, by the wall clock (Date.now, shared by the processes). */
  reachedAt: number;
}

export interface RoundAdded {
  /** One machine per person, in the order of benchAccounts(people). */
  machines: RoundMachine[];
}

/**
 * Waits until Slack has accepted a reply for each card: a post threaded under it, or a post in its
 * channel that names its machine (a completion coalesced with others counts for every machine it names).
 */
export interface AwaitReplies {
  type: 'replies';
  cards: Array<{ cardTs: string; channel: string; machineName: string }>;
  timeoutMs: number;
}

/** When the first reply for each card arrived (Date.now), by card ts; the cards without one by the timeout are absent. */
export interface RepliesArrived {
  arrivedAt: Record<string, number>;
  /** chat.postMessage calls the fake Slack refused with 429 (over the channel's pace) while waiting. */
  paceRefusals: number;
}

export interface ReplicaConfig {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
  databaseUrl: string;
  replicaId: string;
  /** The vault key every replica of the run shares, base64. */
  vaultKey: string;
}

export interface ReplicaReady {
  pid: number;
}

/** Asks a replica for the CPU time it has used so far. */
export const CPU_QUERY = { type: 'cpu' } as const;
/** process.cpuUsage(): user and system CPU time, in microseconds. */
export type CpuUsed = NodeJS.CpuUsage;

/** What a floor poller (floor-poller-process.ts) needs to reach the world. */
export interface FloorConfig {
  paperspace: { apiUrl: string };
  slackApiUrl: string;
  /** How many floor pollers share the world (and each channel's pace). */
  pollers: number;
}

/** The machines a floor poller waits for this round, each with the key of the person it belongs to. */
export interface FloorRound {
  type: 'floor-round';
  machines: Array<{
    apiKey: string;
    machineId: string;
    machineName: string;
    channel: string;
    cardTs: string;
  }>;
}
