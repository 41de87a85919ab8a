// Receipts a dead replica left (acked requests it never carried to their intent), found by two live
// replicas ticking at the same moment: each person is told once, not once per replica.
import { afterEach, describe, expect, it } from 'vitest';
import { RECEIPT_GRACE_MS } from '../../src/features/watches/receipt-recovery.js';
import { createTestSchema, postgresSkipReason, type TestSchema } from '../store/postgres-test-database.js';
import { USERS } from '../support/test-bot.js';
import { type Replica, type ReplicaCluster, startReplicaCluster } from './cluster.js';

const CHANNEL = 'C0TEAM';

let schema: TestSchema | undefined;
let cluster: ReplicaCluster | undefined;
afterEach(async () => {
  await cluster?.close();
  await schema?.drop();
  cluster = undefined;
  schema = undefined;
});

describe.skipIf(postgresSkipReason !== undefined)('receipts of requests lost with a replica', () => {
  it('two replicas ticking together tell each person once, naming the machine', async () => {
    schema = await createTestSchema();
    cluster = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
    const [a] = cluster.replicas as [Replica, Replica];
    const names = Array.from({ length: 8 }, (_, index) => `lost-gpu-${index}`);
    for (const [index, name] of names.entries()) {
      // What a replica killed after the ack leaves: the receipt, and nothing else.
      await a.store.receivedRequests.receive({
        id: `receipt-${index}`,
        teamId: cluster.user('ada').teamId,
        userId: USERS.ada.slackId,
        channel: CHANNEL,
        operation: index % 2 === 0 ? 'start' : 'stop',
        subject: name,
        receivedAt: cluster.clock.now(),
      });
    }
    for (let round = 0; round < 3; round++) {
      cluster.clock.advance(RECEIPT_GRACE_MS + 1000);
      await cluster.tickAll();
    }

    const told = cluster.slack
      .calls('chat.postEphemeral')
      .filter((call) => call.args.user === USERS.ada.slackId && call.args.channel === CHANNEL)
      .map((call) => String(call.args.text));
    for (const name of names) expect(told.filter((text) => text.includes(`*${name}*`))).toHaveLength(1);
    expect(told).toHaveLength(names.length);
    expect(await a.store.receivedRequests.pending(Number.MAX_SAFE_INTEGER, 100)).toEqual([]);
  }, 60_000);
});
