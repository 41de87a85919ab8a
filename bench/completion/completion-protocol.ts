// Messages between the completion benchmark and its world process (completion-world-process.ts). Kept
// apart from that script: importing a script would run it.

export interface CompletionWorldConfig {
  people: number;
  /** How long a starting machine takes to reach serviceready. */
  transitionMs: number;
  latencyMs: number;
}

export interface CompletionWorldReady {
  paperspace: { apiUrl: string; graphqlUrl: string };
  slackApiUrl: string;
}

/** Gives every person one more starting machine; answered with WaveAdded. */
export interface AddWave {
  type: 'wave';
  wave: number;
}

export interface WaveAdded {
  /** One machine per person, in the order of benchAccounts(people). */
  machineIds: string[];
  /** When those machines reach serviceready, by the wall clock (Date.now, shared by the processes). */
  reachedAt: number;
}

/** Waits until a reply threaded under each card has reached the fake Slack, or the timeout. */
export interface AwaitReplies {
  type: 'replies';
  cards: string[];
  timeoutMs: number;
}

/** When the first reply under each card arrived (Date.now); the cards without one by the timeout are absent. */
export interface RepliesArrived {
  arrivedAt: Record<string, number>;
}
