// Forgotten-machine alerts with two replicas on one PostgreSQL database: each alert is one DM, whether
// the replicas split the people between them (the person leases) or both check one person at the same
// moment (a lease that changed hands mid-check): the (machine, arming) claim decides.
import { randomBytes } from 'node:crypto';
import { WebClient } from '@slack/web-api';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { costAlertBlockId } from '../../src/features/cost-alerts/blocks/cost-alert.js';
import { createCostGuard } from '../../src/features/cost-alerts/cost-guard.js';
import { createLogger } from '../../src/logger.js';
import { createChannelPacer } from '../../src/slack/channel-pacer.js';
import { createKeyVault } from '../../src/vault/key-vault.js';
import { useTestSchema } from '../store/postgres-test-database.js';
import type { ApiCall } from '../support/fake-slack.js';
import { BOT_TOKEN, type TestUserName, USERS } from '../support/test-bot.js';
import { type Replica, type ReplicaCluster, startReplicaCluster } from './cluster.js';

const OWNERS: readonly TestUserName[] = ['ada', 'maya', 'sam'];
const HOUR_MS = 60 * 60_000;

const schema = useTestSchema();
let c: ReplicaCluster;
let running: ReplicaCluster | undefined;
let a: Replica;
let b: Replica;

/** Whether a posted message holds an alert's row about the machine (several may share one message). */
const isAlertAbout = (call: ApiCall, machineId: string): boolean =>
  Array.isArray(call.args.blocks) &&
  (call.args.blocks as { block_id?: string }[]).some(
    (block) => block.block_id === costAlertBlockId(machineId),
  );

/** The alerts DMed to `owner` about the machine `machineId`. */
const alertsAbout = (owner: TestUserName, machineId: string): ApiCall[] =>
  c.slack
    .calls('chat.postMessage')
    .filter((call) => call.args.channel === USERS[owner].slackId && isAlertAbout(call, machineId));

/** One machine per owner, started with the owner's key. */
async function startOneEach(): Promise<Record<TestUserName, string>> {
  const ids = {} as Record<TestUserName, string>;
  for (const owner of OWNERS) {
    const [id] = c.emulator.state.addMachines(1, {
      owner: USERS[owner].emulatorUserId,
      namePrefix: `${owner}-long`,
    });
    if (id === undefined) throw new Error('the emulator did not add a machine');
    await c.client(owner).machines.start(id);
    ids[owner] = id;
  }
  return ids;
}

describe('forgotten-machine alerts with two replicas', () => {
  beforeEach(async () => {
    c = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
    running = c;
    for (const owner of OWNERS) await c.link(owner);
    [a, b] = c.replicas as [Replica, Replica];
  });
  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  it('each owner gets exactly one DM per machine while both replicas tick at the same moments', async () => {
    const ids = await startOneEach();
    await c.tickAll();
    c.clock.advance(5000);
    await c.tickAll();
    for (let hour = 0; hour < 10; hour += 1) {
      c.clock.advance(HOUR_MS);
      await c.tickAll();
    }
    for (const owner of OWNERS) expect(alertsAbout(owner, ids[owner]), owner).toHaveLength(1);
    // No machine is in two DMs of the run: none was alerted twice.
    const posts = c.slack.calls('chat.postMessage');
    for (const machine of c.emulator.state.machines()) {
      expect(posts.filter((call) => isAlertAbout(call, machine.id)).length, machine.name).toBeLessThanOrEqual(
        1,
      );
    }
  });

  it('two replicas checking the same person at the same moment post one DM', async () => {
    const ids = await startOneEach();
    const logger = createLogger({ level: 'silent' });
    const guardOf = (replica: Replica) =>
      createCostGuard({
        store: replica.store,
        // Only the account facts are read, never a key: the replica's own vault would answer the same.
        vault: createKeyVault({ keys: [randomBytes(32)], store: replica.store, now: c.clock.now }),
        slack: async () => new WebClient(BOT_TOKEN, { slackApiUrl: c.slack.apiUrl }),
        // Each replica has a pacer of its own, as each bot process does.
        pacer: createChannelPacer({ pacing: null }),
        logger,
        now: c.clock.now,
      });
    const guards = [guardOf(a), guardOf(b)];
    const ada = c.user('ada');
    const client = c.client('ada');
    const check = async () => {
      // As each replica's poller does: asked whether the check is due, then handed the list.
      for (const guard of guards) guard.due(ada, c.clock.now());
      const machines = await client.machines.list();
      await Promise.all(guards.map((guard) => guard.check(ada, machines, client)));
    };
    await check();
    c.clock.advance(9 * HOUR_MS);
    await check();
    await check();
    expect(alertsAbout('ada', ids.ada)).toHaveLength(1);
    // ada-workstation, seeded running, was due too: one DM about it as well.
    expect(alertsAbout('ada', 'psada001')).toHaveLength(1);
  });
});
