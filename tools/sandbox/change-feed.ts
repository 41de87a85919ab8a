// What changed in the sandbox workspace, as the page needs to hear it. The workspace and the view
// stacks emit; the event stream (events.ts) forwards each change to the pages allowed to see it.
import type { PageMessage } from './workspace.js';

/** A view as the page renders it: the view JSON plus what Slack shows around it. */
export interface PageView {
  id: string;
  hash: string;
  view: Record<string, unknown>;
  /** Field errors from `response_action: 'errors'`, by block_id. */
  errors: Record<string, string>;
  /** A problem Slack shows at the top of a modal ("We had some trouble connecting…"). */
  problem: string | null;
}

export type WorkspaceChange =
  | { type: 'message'; message: PageMessage }
  | { type: 'message_deleted'; channel: string; ts: string }
  | { type: 'ephemeral'; userId: string; message: PageMessage }
  | { type: 'ephemeral_deleted'; userId: string; channel: string; ts: string }
  /** The person's open modals, bottom first; empty when none is open. */
  | { type: 'modals'; userId: string; stack: PageView[] }
  | { type: 'home'; userId: string; view: PageView }
  /** A short notice for one person, such as a click the app did not answer. */
  | { type: 'notice'; userId: string; text: string }
  /** The sandbox clock moved (sandbox-clock.ts); everyone sees the same time. */
  | { type: 'clock'; now: number; offsetMs: number };

export interface ChangeFeed {
  emit(change: WorkspaceChange): void;
  /** Returns the function that unsubscribes. */
  subscribe(listener: (change: WorkspaceChange) => void): () => void;
}

export function createChangeFeed(): ChangeFeed {
  const listeners = new Set<(change: WorkspaceChange) => void>();
  return {
    emit(change) {
      for (const listener of listeners) listener(change);
    },
    subscribe(listener) {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };
}
