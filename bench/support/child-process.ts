// Benchmarks run the process under test apart from the load they put on it: the bot's event loop then
// serves only the bot, and its memory is its own. Parent and child talk over Node's IPC channel, one
// message at a time, in order.
import { type ChildProcess, fork } from 'node:child_process';
import type { EventEmitter } from 'node:events';
import { fileURLToPath } from 'node:url';
import { IMAGE_RUNTIME_ENV } from './image-environment.js';

export interface Channel {
  send(message: unknown): void;
  /** The next message not read yet; rejects when the other side goes away before sending one. */
  next<T>(): Promise<T>;
}

export interface BenchChild extends Channel {
  pid: number | undefined;
  /** Asks the child to stop (it closes what it opened) and waits for it to exit. */
  stop(): Promise<void>;
}

export const STOP = { type: 'stop' } as const;

function createChannel(
  source: EventEmitter,
  post: (message: unknown) => void,
): Channel & {
  close(reason: Error): void;
} {
  const queued: unknown[] = [];
  const waiting: Array<{ resolve: (message: unknown) => void; reject: (error: Error) => void }> = [];
  let closed: Error | undefined;
  source.on('message', (message: unknown) => {
    const waiter = waiting.shift();
    if (waiter) waiter.resolve(message);
    else queued.push(message);
  });
  return {
    send: post,
    next<T>() {
      if (queued.length > 0) return Promise.resolve(queued.shift() as T);
      if (closed) return Promise.reject(closed);
      return new Promise<T>((resolve, reject) => {
        waiting.push({ resolve: (message) => resolve(message as T), reject });
      });
    },
    close(reason) {
      closed = reason;
      for (const waiter of waiting.splice(0)) waiter.reject(reason);
    },
  };
}

/**
 * Starts `script` (TypeScript, run through tsx) with `node --import tsx` and the image's runtime
 * environment (NODE_OPTIONS and the allocator's MALLOC_* settings).
 * `exposeGc` adds --expose-gc, so the child can collect garbage before it reads its memory.
 */
export function startChild(script: URL, options: { exposeGc?: boolean } = {}): BenchChild {
  const child: ChildProcess = fork(fileURLToPath(script), [], {
    execArgv: [
      '--import',
      'tsx',
      // BENCH_PROF=<directory>: a CPU profile of every child, written there when it exits.
      ...(process.env.BENCH_PROF ? ['--cpu-prof', `--cpu-prof-dir=${process.env.BENCH_PROF}`] : []),
      ...(options.exposeGc ? ['--expose-gc'] : []),
    ],
    // The image's heap caps and allocator settings, for the bot and its reference alike: Node 24's
    // defaults grow the young generation four times as far, which changes what garbage collection
    // costs a request.
    env: { ...process.env, ...IMAGE_RUNTIME_ENV },
    stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
  });
  const channel = createChannel(child, (message) => {
    child.send(message as object);
  });
  const exited = new Promise<void>((resolve) => {
    child.once('exit', (code, signal) => {
      channel.close(new Error(`${fileURLToPath(script)} exited (code ${code}, signal ${signal})`));
      resolve();
    });
  });
  return {
    pid: child.pid,
    send: channel.send,
    next: channel.next,
    async stop() {
      if (child.connected) child.send(STOP);
      await exited;
    },
  };
}

/** The child's side: messages from the benchmark that started it. */
export function parentChannel(): Channel & { disconnect(): void } {
  const send = process.send?.bind(process);
  if (send === undefined)
    throw new Error('this script is started by the benchmarks (bench/run.ts), not directly');
  const channel = createChannel(process, (message) => {
    send(message);
  });
  process.once('disconnect', () => channel.close(new Error('the benchmark went away')));
  return { send: channel.send, next: channel.next, disconnect: () => process.disconnect() };
}
