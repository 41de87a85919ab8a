// Server-sent events to the page: on connect a snapshot of what the chosen person sees, then every
// change they may see (their conversations, their ephemeral messages, their views). EventSource
// reconnects by itself, and each reconnect starts from a fresh snapshot, so nothing is missed.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ChangeFeed } from './change-feed.js';
import type { ClockReading } from './sandbox-clock.js';
import { SANDBOX_APP, SANDBOX_TEAM } from './sandbox-identity.js';
import { toPageView, type ViewStacks } from './view-stacks.js';
import type { Workspace } from './workspace.js';

/** Comment lines keep idle connections open through proxies and let the server notice gone clients. */
const KEEPALIVE_MS = 15_000;

export interface EventStreamOptions {
  feed: ChangeFeed;
  workspace: Workspace;
  views: ViewStacks;
  /** A line per person for the user switcher, such as which demo key fits them. */
  notes: Record<string, string>;
  /** The sandbox clock, when the app behind the page follows it (a scripted test app does not). */
  clock?: (() => ClockReading) | undefined;
}

export interface EventStream {
  /** Streams to one page acting as `userId`. */
  open(request: IncomingMessage, response: ServerResponse, userId: string): void;
  /** Ends every stream (the server cannot close while they stay open). */
  closeAll(): void;
}

export function createEventStream({ feed, workspace, views, notes, clock }: EventStreamOptions): EventStream {
  const open = new Set<ServerResponse>();

  const write = (response: ServerResponse, event: string, data: unknown): void => {
    response.write(`event: ${event}\ndata: ${JSON.stringify(data)}\n\n`);
  };

  return {
    open(request, response, userId) {
      response.writeHead(200, {
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        connection: 'keep-alive',
        'x-accel-buffering': 'no',
      });
      open.add(response);
      const home = views.home(userId);
      write(response, 'snapshot', {
        me: userId,
        team: SANDBOX_TEAM,
        app: SANDBOX_APP,
        people: workspace.people.map((person) => ({ ...person, note: notes[person.id] ?? '' })),
        ...workspace.snapshotFor(userId),
        modals: views.modals(userId).map(toPageView),
        home: home === undefined ? null : toPageView(home),
        clock: clock === undefined ? null : clock(),
      });
      const unsubscribe = feed.subscribe((change) => {
        if (workspace.visibleTo(change, userId)) write(response, 'change', change);
      });
      const keepalive = setInterval(() => response.write(': keepalive\n\n'), KEEPALIVE_MS);
      keepalive.unref();
      const stop = () => {
        clearInterval(keepalive);
        unsubscribe();
        open.delete(response);
      };
      request.on('close', stop);
      response.on('close', stop);
    },

    closeAll() {
      for (const response of open) response.end();
      open.clear();
    },
  };
}
