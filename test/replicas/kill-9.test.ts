// The crash of lost-requests.test.ts with real processes: each replica is src/main.ts in an OS process
// of its own (process-deployment.ts), and the kill is SIGKILL, wherever the replica is (mid-write to
// PostgreSQL, mid-request to Paperspace, with cards waiting in its pacer). A team types 20 `/ps start`
// in one channel, Slack spreads them over two replicas, one is killed 1.8 s in and started again, as
// an orchestrator would. Every machine Paperspace started gets exactly one completion naming it, from
// the survivor or the restarted replica (watches/intent-recovery.ts, watches/watch-outcomes.ts).
// Then the database is cut under both replicas 0.8 s after 10 starts and comes back: every watch
// completes. Everything is judged from outside: the emulator's request log and what Slack was sent.
import { setTimeout as sleep } from 'node:timers/promises';
import { afterEach, describe, expect, it } from 'vitest';
import { INTENT_GRACE_MS } from '../../src/features/watches/intent-recovery.js';
import { RETRY_AFTER_MS } from '../../src/features/watches/watch-outcomes.js';
import { createTestSchema, postgresSkipReason, type TestSchema } from '../store/postgres-test-database.js';
import { startTcpProxy, type TcpProxy } from '../support/tcp-proxy.js';
import { type TestUserName, USERS } from '../support/test-bot.js';
import type { BotProcess } from './bot-process.js';
import { completionsOf, describeFigures, type SentCommand, startedMachineIds, tally } from './power-tally.js';
import { type ProcessDeployment, startProcessDeployment } from './process-deployment.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
const CHANNEL = 'C0TEAM';
const REPLICAS = ['replica-a', 'replica-b'] as const;
/** The scheduler's least lease on a person's watches (watches/jobs.ts): a dead replica's run out then. */
const LEASE_MS = 30_000;
/**
 * The longest recovery can take: an intent is settled once past its grace, a dead replica's lease
 * runs out, and a completion it stored but never posted comes due; on a loaded machine, a margin.
 */
const RECOVERY_MS = INTENT_GRACE_MS + LEASE_MS + RETRY_AFTER_MS + 90_000;
const ROUND_TIMEOUT_MS = RECOVERY_MS + 180_000;

let schema: TestSchema | undefined;
let proxy: TcpProxy | undefined;
let deployment: ProcessDeployment | undefined;
// Stopping the replicas waits for each to exit.
const CLOSE_TIMEOUT_MS = 60_000;
afterEach(async () => {
  proxy?.restore();
  await deployment?.close();
  await proxy?.close();
  await schema?.drop();
  deployment = undefined;
  proxy = undefined;
  schema = undefined;
}, CLOSE_TIMEOUT_MS);

async function deploy(throughProxy: boolean): Promise<ProcessDeployment> {
  schema = await createTestSchema();
  proxy = throughProxy ? await startTcpProxy(schema.url) : undefined;
  deployment = await startProcessDeployment({
    databaseUrl: schema.url,
    replicaDatabaseUrl: proxy?.url ?? schema.url,
    replicaNames: REPLICAS,
    linked: OWNERS,
  });
  return deployment;
}

/**
 * Types `/ps start` for `count` machines that are off, all at once, alternating between the replicas;
 * resolves once every request has been answered, or has failed with its replica.
 */
async function startMachines(d: ProcessDeployment, round: number, count: number): Promise<SentCommand[]> {
  const sends = Array.from({ length: count }, async (_, index) => {
    const owner = OWNERS[index % OWNERS.length] as TestUserName;
    const [machineId] = d.emulator.state.addMachines(1, {
      owner: USERS[owner].emulatorUserId,
      state: 'off',
      namePrefix: `p${round}-${owner}-${index}-`,
    });
    const name = d.emulator.state.machine(machineId ?? '')?.name;
    if (machineId === undefined || name === undefined) throw new Error('the emulator did not add a machine');
    const via = d.replica(REPLICAS[index % REPLICAS.length] as string);
    const request = d.requests.slashCommand({
      text: `start ${name}`,
      userId: USERS[owner].slackId,
      channelId: CHANNEL,
    });
    const command = { machineId, name, owner, via: via.name, responseUrlId: request.responseUrlId };
    try {
      const response = await d.send(via, request);
      return { ...command, acked: response.status === 200, ackBody: response.body };
    } catch {
      // The replica died with the request open (or before it arrived): Slack got no answer.
      return { ...command, acked: false, ackBody: undefined };
    }
  });
  return Promise.all(sends);
}

/**
 * Each person lists their machines once on each replica and is answered: a replica of a running
 * deployment has served requests before, so the kill finds it at work on the starts rather than still
 * loading its code and opening its first connections.
 */
async function warmUp(d: ProcessDeployment): Promise<void> {
  await Promise.all(
    REPLICAS.flatMap((name) =>
      OWNERS.map(async (owner) => {
        const request = d.requests.slashCommand({ text: 'list', userId: USERS[owner].slackId });
        await d.send(d.replica(name), request);
        await d.slack.waitForResponse(request.responseUrlId ?? '', { timeoutMs: 60_000 });
      }),
    ),
  );
}

/**
 * Waits (real time, ending as soon as it holds) until the deployment has settled: no watch is active,
 * no completion is left unposted, every machine Paperspace started has a completion, and every command
 * a replica that was never killed acknowledged has been answered with something naming its machine.
 */
async function untilSettled(d: ProcessDeployment, commands: readonly SentCommand[], killed?: string) {
  const deadline = Date.now() + RECOVERY_MS;
  while (Date.now() < deadline) {
    const active = await d.store.watches.countActive();
    const unposted = await d.store.watches.dueReports(Date.now() + 10 * RETRY_AFTER_MS, 100);
    const started = startedMachineIds(d.emulator);
    const uncompleted = commands.filter(
      (command) => started.has(command.machineId) && completionsOf(d.slack, command).length === 0,
    );
    const unanswered = commands.filter(
      (command) =>
        command.via !== killed &&
        command.acked &&
        !started.has(command.machineId) &&
        completionsOf(d.slack, command).length === 0,
    );
    if (active === 0 && unposted.length === 0 && uncompleted.length === 0 && unanswered.length === 0) return;
    await sleep(500);
  }
}

/** What a replica logged at warn or above, for a failing round's message. */
function troubles(replica: BotProcess): string[] {
  return replica
    .logLines()
    .filter((line) => line.level >= 40)
    .map((line) => `${replica.name}: ${line.msg ?? ''} ${JSON.stringify(line.error ?? '')}`);
}

describe.skipIf(postgresSkipReason !== undefined)('replicas as processes, killed with SIGKILL', () => {
  it.each([1, 2])(
    'round %i: a replica SIGKILLed 1.8 s into 20 starts in one channel: every started machine completes once',
    async (round) => {
      const d = await deploy(false);
      await warmUp(d);
      const killed = d.replica('replica-a');
      const sentAt = Date.now();
      const sending = startMachines(d, round, 20);
      await sleep(Math.max(0, sentAt + 1800 - Date.now()));
      await killed.kill();
      const restarting = d.restart('replica-a');
      const commands = await sending;
      const restarted = await restarting;
      await untilSettled(d, commands, killed.name);

      const figures = tally(d.emulator, d.slack, commands, killed.name);
      const settledAfter = Math.round((Date.now() - sentAt) / 1000);
      console.info(`${describeFigures(`SIGKILL round ${round}`, figures)}; settled ${settledAfter} s in`);
      const context = [...troubles(killed), ...troubles(restarted), ...troubles(d.replica('replica-b'))];
      expect(figures.started, context.join('\n')).toBeGreaterThan(0);
      expect(figures.lost, context.join('\n')).toBe(0);
      expect(figures.twice, context.join('\n')).toBe(0);
      expect(figures.startedButToldNotSent, context.join('\n')).toBe(0);
      expect(await d.store.watches.countActive()).toBe(0);
    },
    ROUND_TIMEOUT_MS,
  );

  it(
    'the database cut under both replicas 0.8 s after 10 starts, and back: every watch completes, every card ends ready',
    async () => {
      const d = await deploy(true);
      await warmUp(d);
      const sentAt = Date.now();
      const sending = startMachines(d, 3, 10);
      await sleep(800);
      proxy?.cut();
      await sleep(3000);
      proxy?.restore();
      const commands = await sending;
      await untilSettled(d, commands);

      const figures = tally(d.emulator, d.slack, commands);
      const settledAfter = Math.round((Date.now() - sentAt) / 1000);
      console.info(`${describeFigures('database cut', figures)}; settled ${settledAfter} s in`);
      const context = REPLICAS.flatMap((name) => troubles(d.replica(name))).join('\n');
      expect(figures.started, context).toBeGreaterThan(0);
      expect(figures.lost, context).toBe(0);
      expect(figures.twice, context).toBe(0);
      expect(figures.startedButToldNotSent, context).toBe(0);
      expect(await d.store.watches.countActive()).toBe(0);
      // No card is left saying "Starting…": each card of a started machine was updated to where it got.
      const cards = d.slack
        .calls('chat.postMessage')
        .filter((call) => call.args.channel === CHANNEL && String(call.args.text).includes('Starting'));
      const stale = cards.filter((card) => {
        const ts = String(card.answer?.ts ?? '');
        const last = d.slack
          .calls('chat.update')
          .filter((call) => call.args.ts === ts)
          .at(-1);
        return last === undefined || !/ready/i.test(String(last.args.text));
      });
      console.info(`database cut: ${cards.length} cards posted, ${stale.length} left unfinished`);
      expect(stale).toEqual([]);
    },
    ROUND_TIMEOUT_MS,
  );
});
