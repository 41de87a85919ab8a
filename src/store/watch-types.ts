// The shapes of watches, apart from the repository that stores them (watches.ts).
import { z } from 'zod';
import type { SlackUser } from './slack-user.js';

export type WatchStatus = 'active' | 'done' | 'failed' | 'timed_out' | 'gone';
export type FinishedWatchStatus = Exclude<WatchStatus, 'active'>;

/** One observed state of the machine, for "starting 0:12 -> ready 2:14" style summaries. */
export interface TimelineEntry {
  state: string;
  at: number;
}
export const timelineSchema = z.array(z.object({ state: z.string(), at: z.number() }));

/** What a watch is about; fixed when it is created. */
interface WatchSubject extends SlackUser {
  machineId: string;
  machineName: string;
  targetState: string;
  channel: string;
  createdAt: number;
  deadlineAt: number;
}

export interface NewWatch extends WatchSubject {
  messageTs?: string | null;
  threadTs?: string | null;
  lastState?: string | null;
  eventId?: string | null;
  functionExecutionId?: string | null;
  /** The operation followed (`start`, `stop`, `restart`, `create`); null for `/ps wait`. */
  operation?: string | null;
  /**
   * Set (to the moment it is recorded) for the intent of an operation not yet sent to Paperspace: the
   * watch is stored first, and markSent() records that the call was answered. The poller leaves it
   * alone until then; the recovery asks Paperspace whether it went out (watches/intent-recovery.ts).
   */
  pendingSince?: number | null;
  /**
   * The receipt of the request this intent records (received-requests.ts): ended in the same
   * transaction, so a replica lost at any moment leaves the one or the other. A receipt the recovery
   * took meanwhile stores nothing (ReceiptTakenError): the person was told it was not done.
   */
  receivedId?: string;
  /**
   * Set for a watch that follows an operation (start, stop, restart, create): every older active watch
   * of the same machine in the workspace is finished as failed with this detail, in the same
   * transaction, since the machine is no longer heading where they wait for it to go.
   */
  supersedes?: string;
}

/** A stored watch, with the older watches of its machine that it superseded (each still showing a card). */
export interface CreatedWatch extends Watch {
  superseded: Watch[];
}

export interface Watch extends WatchSubject {
  id: string;
  messageTs: string | null;
  threadTs: string | null;
  lastState: string | null;
  /**
   * The event of the operation being watched, where the API names one (v1): followed so a failure is
   * known from its error at once, even when the machine's state never moves.
   */
  eventId: string | null;
  /** The Workflow Builder step run this watch ends (a Wait step): it completes the step, posting nothing. */
  functionExecutionId: string | null;
  operation: string | null;
  /** Non-null while the operation's call to Paperspace is not known to have been answered (NewWatch). */
  pendingSince: number | null;
  timeline: TimelineEntry[];
  status: WatchStatus;
  /** Why it finished as it did (an event's error message, "machine was destroyed"...). */
  detail: string | null;
  completedAt: number | null;
}

export interface WatchProgress {
  lastState?: string;
  timeline?: TimelineEntry[];
  messageTs?: string;
  threadTs?: string;
}

/** What the answer of the operation's call adds to the intent it was recorded with (markSent). */
export interface SentOperation {
  at: number;
  /** The machine as re-read after the call. */
  lastState?: string;
  eventId?: string | null;
  /** Where the card went, when the fallback chain took it elsewhere (the person's DM). */
  channel?: string;
  messageTs?: string;
  threadTs?: string;
  /** As NewWatch.supersedes: the older active watches of the machine are finished with this detail. */
  supersedes?: string;
}

export interface WatchCompletion {
  status: FinishedWatchStatus;
  at: number;
  detail?: string | null;
  lastState?: string;
  timeline?: TimelineEntry[];
  /**
   * What is to be posted about it, kept until `reported()`; any replica may post it from `retryAt` on
   * (the one that finished the watch is expected to have done so by then).
   */
  report?: { body: string; retryAt: number };
}

/** A finished watch whose outcome has not been posted yet. */
export interface DueReport {
  watch: Watch;
  /** As given to `complete()`. */
  body: string;
  /** When it became due; `claimReport()` takes it for exactly one caller by this value. */
  dueAt: number;
  /**
   * When a post of it was last handed to Slack without an answer recorded since (the replica died, or
   * Slack's answer never came): it may be in the conversation already. Null when no post went out, or
   * Slack refused every one.
   */
  sentAt: number | null;
}

/** A replica's hold on watches: `owner` names the replica, the lease ends at now + leaseMs. */
export interface WatchLease {
  owner: string;
  now: number;
  leaseMs: number;
}

/**
 * What a listener asks after a start, stop, restart, create or `/ps wait`: a watch of this machine until
 * it reaches a state (the watches feature implements it; the listeners' deps carry it).
 */
export interface WatchRequest {
  /** Whose key polls; the completion mentions them. */
  user: SlackUser;
  machineId: string;
  machineName: string;
  targetState: Watch['targetState'];
  /** Where the card is; the completion goes into its thread. */
  channel: string;
  /** The card message to update in place (absent when the card could not be posted as a message). */
  messageTs?: string;
  threadTs?: string;
  /** Default 30 minutes. */
  timeoutMs?: number;
  /** The state the machine was in when the watch began, so the first change is shown. */
  initialState?: string;
  /** The event the start, stop or restart answered with, to follow (v1); absent otherwise. */
  eventId?: string | null;
  /**
   * What the watch follows, for the cards of the older watches of this machine that it supersedes
   * ("a newer start took over"). Absent for `/ps wait`, which only looks: it supersedes nothing.
   */
  operation?: string;
  /** A Wait step's run: the watch ends it instead of posting; `channel` is then the person's id. */
  functionExecutionId?: string;
  /**
   * The operation is about to be sent and not yet answered: the watch is its intent (NewWatch
   * pendingSince), supersedes nothing yet, and is polled only once markSent() records the answer.
   */
  pending?: boolean;
  /** The receipt of the request, ended as the intent is stored (NewWatch receivedId). */
  receivedId?: string;
}

export interface MachineWatcher {
  watch(request: WatchRequest): Promise<CreatedWatch>;
}
