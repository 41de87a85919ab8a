// One replica of the bot as it is deployed: src/main.ts in an OS process of its own (through tsx, as
// `npm start` runs it), configured by environment variables alone. Killing it is a real SIGKILL: it
// dies wherever it is, mid-write or mid-request, its sockets are reset by the kernel, its timers and
// queues vanish, and it gives nothing back.
import { type ChildProcess, spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { CONFIG_VARIABLES } from '../../src/config.js';

const MAIN = fileURLToPath(new URL('../../src/main.ts', import.meta.url));
/** A replica starting beside others on a loaded machine compiles the bot through tsx first. */
const START_TIMEOUT_MS = 120_000;
/** How long a replica asked to stop (SIGINT, no load-balancer drain) is given before it is killed. */
const STOP_TIMEOUT_MS = 20_000;

interface BotLogLine {
  level: number;
  msg?: string;
  [field: string]: unknown;
}

/** What a deployment sets for a replica: the environment variables of src/config.ts. */
export interface BotProcessEnvironment {
  SLACK_BOT_TOKEN: string;
  SLACK_SIGNING_SECRET: string;
  SLACK_API_URL: string;
  PAPERSPACE_API_URL: string;
  PAPERSPACE_GRAPHQL_URL: string;
  VAULT_KEY: string;
  DATABASE_URL: string;
  POLL_INTERVAL_MS: string;
}

export interface BotProcess {
  readonly name: string;
  readonly pid: number;
  /** Where its Slack app listens: signed requests go to `${url}/slack/events`. */
  readonly url: string;
  /** Everything it logged (pino's JSON lines on stdout). */
  logLines(): BotLogLine[];
  /** SIGKILL, then waits until the kernel has reaped it. */
  kill(): Promise<void>;
  /** SIGINT (a stop without the load balancer's drain), SIGKILL if it hangs; waits for the exit. */
  stop(): Promise<void>;
}

/** The parent's environment without any of the bot's variables, so only `environment` configures it. */
function childEnvironment(environment: BotProcessEnvironment): NodeJS.ProcessEnv {
  const inherited = { ...process.env };
  for (const variable of CONFIG_VARIABLES) delete inherited[variable];
  return { ...inherited, ...environment, PORT: '0', HOST: '127.0.0.1', LOG_LEVEL: 'info' };
}

async function exitOf(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  await once(child, 'exit');
}

/** Starts a replica and resolves once it listens, with the port it logged. */
export async function startBotProcess(name: string, environment: BotProcessEnvironment): Promise<BotProcess> {
  const child = spawn(process.execPath, ['--import', 'tsx', MAIN], {
    env: childEnvironment(environment),
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines: BotLogLine[] = [];
  let stderr = '';
  child.stderr?.setEncoding('utf8').on('data', (chunk: string) => {
    stderr += chunk;
  });
  const port = new Promise<number>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`replica ${name} did not start within ${START_TIMEOUT_MS} ms: ${stderr}`));
    }, START_TIMEOUT_MS);
    createInterface({ input: child.stdout as NodeJS.ReadableStream }).on('line', (text) => {
      let line: BotLogLine;
      try {
        line = JSON.parse(text) as BotLogLine;
      } catch {
        line = { level: 30, msg: text };
      }
      lines.push(line);
      if (line.msg === 'Paperspace bot is running' && typeof line.port === 'number') {
        clearTimeout(timer);
        resolve(line.port);
      }
    });
    child.once('exit', (code, signal) => {
      clearTimeout(timer);
      reject(
        new Error(`replica ${name} exited before listening (code ${code}, signal ${signal}): ${stderr}`),
      );
    });
  });
  const pid = child.pid;
  if (pid === undefined) throw new Error(`replica ${name} could not be spawned`);
  const listening = await port;
  return {
    name,
    pid,
    url: `http://127.0.0.1:${listening}`,
    logLines: () => [...lines],
    async kill() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      process.kill(pid, 'SIGKILL');
      await exitOf(child);
    },
    async stop() {
      if (child.exitCode !== null || child.signalCode !== null) return;
      const hung = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
      child.kill('SIGINT');
      await exitOf(child);
      clearTimeout(hung);
    },
  };
}
