// Two Start clicks on PostgreSQL with two replicas behind Slack: the same person's clicks on the card and
// in App Home may arrive together and reach one replica each. Paperspace hears one start.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionId } from '../../src/slack/ids.js';
import { cardValue, eventually, settle, textOf } from '../features/machines/machine-kit.js';
import { useTestSchema } from '../store/postgres-test-database.js';
import { USERS } from '../support/test-bot.js';
import { type Replica, type ReplicaCluster, startReplicaCluster } from './cluster.js';

const ADA = USERS.ada.slackId;
const CHANNEL = 'C0OPS';

const schema = useTestSchema();
let c: ReplicaCluster;
let running: ReplicaCluster | undefined;

beforeEach(async () => {
  c = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
  running = c;
  await c.link('ada');
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});

describe('two Start clicks arriving together at two replicas', () => {
  it('send one start to Paperspace, and the later click is told it was sent moments ago', async () => {
    const [a, b] = c.replicas as [Replica, Replica];
    const [id] = c.emulator.state.addMachines(1, {
      owner: USERS.ada.emulatorUserId,
      state: 'off',
      namePrefix: 'twin-',
    });
    const machine = c.emulator.state.machine(id ?? '');
    if (!machine) throw new Error('the emulator did not add the machine');
    const onCard = c.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue(machine.id, machine.name),
      userId: ADA,
      channelId: CHANNEL,
      message: { ts: '1600000000.000321' },
    });
    const inHome = c.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue(machine.id, machine.name),
      userId: ADA,
      view: { type: 'home' },
    });
    await Promise.all([c.send(a, onCard), c.send(b, inHome)]);

    const toldAgain = () =>
      [
        ...c.slack.responses(onCard.responseUrlId ?? '').map((post) => textOf(post)),
        ...c.slack.calls('chat.postMessage').map((call) => textOf(call.args)),
        // A click in App Home has no response_url: with a live trigger_id (Slack's, issued by the
        // fake) the answer opens in a modal.
        ...c.slack.calls('views.open').map((call) => textOf(call.args.view)),
      ].find((text) => text.includes('I sent nothing again'));
    expect(await eventually(toldAgain, 10_000)).toContain(`<@${ADA}> asked to start`);
    await eventually(async () => {
      const active = await a.store.watches.listActive({ machineId: machine.id });
      return active.length > 0 ? active : undefined;
    }, 10_000);
    await settle();
    const starts = c.emulator.state.requests().filter((entry) => entry.path.includes(`${machine.id}/start`));
    expect(starts).toHaveLength(1);
    expect(await a.store.watches.listActive({ machineId: machine.id })).toHaveLength(1);
  });
});
