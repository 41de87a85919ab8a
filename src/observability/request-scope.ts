// The Slack request being served, wherever the code that serves it runs. An AsyncLocalStorage follows
// the request through every await, so the logger (createLogger's requestScope) can stamp each line
// with its id and the Paperspace client factory can send it as X-Request-Id, without every listener
// having to pass the id along by hand.
import { AsyncLocalStorage } from 'node:async_hooks';

export interface RequestScope {
  /** Runs `serve` as the request `requestId`: everything it starts, awaits or logs belongs to it. */
  run<T>(requestId: string, serve: () => T): T;
  /** The id of the request being served here; undefined outside one (scheduler ticks, startup). */
  currentId(): string | undefined;
}

/** One per process is enough (two bots can share it: each request runs in its own async context). */
export function createRequestScope(): RequestScope {
  const storage = new AsyncLocalStorage<string>();
  return {
    run: (requestId, serve) => storage.run(requestId, serve),
    currentId: () => storage.getStore(),
  };
}

/** The id the request scope gave a Slack request, as Bolt passes it to listeners in `context`. */
export function requestIdOf(context: Record<string, unknown>): string | undefined {
  const { requestId } = context;
  return typeof requestId === 'string' ? requestId : undefined;
}
