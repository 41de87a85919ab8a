// Slackbot's MCP client on PostgreSQL with two replicas behind one URL: its calls may reach either
// replica, and the person's Confirm may reach the other one, or both at once (a double click). The
// proposal is the store's, so whichever replica serves the click finds it, and Paperspace hears one stop.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ActionId } from '../../src/slack/ids.js';
import { textOf } from '../features/machines/machine-kit.js';
import { useTestSchema } from '../store/postgres-test-database.js';
import {
  confirmationClick,
  confirmationTo,
  connectSlackbot,
  resultText,
} from '../support/slackbot-client.js';
import { SIGNING_SECRET, USERS } from '../support/test-bot.js';
import { type Replica, type ReplicaCluster, startReplicaCluster } from './cluster.js';

const ADA = USERS.ada.slackId;

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

describe('Slackbot with two replicas', () => {
  it('proposes on one replica and stops once when the Confirm reaches both', async () => {
    const [a, b] = c.replicas as [Replica, Replica];
    const [id] = c.emulator.state.addMachines(1, {
      owner: USERS.ada.emulatorUserId,
      state: 'ready',
      namePrefix: 'mcp-twin-',
    });
    const machine = c.emulator.state.machine(id ?? '');
    if (!machine) throw new Error('the emulator did not add the machine');

    // Reads reach either replica and answer the same. (The same call twice within a second would be
    // the same signed bytes: the second a replay. Slackbot's are two questions, so they differ.)
    for (const [replica, filters] of [
      [a, {}],
      [b, { state: 'ready' }],
    ] as const) {
      const slackbot = await connectSlackbot(replica.url, SIGNING_SECRET);
      const listed = await slackbot.call('list_machines', { filters }, { user_id: ADA, team_id: 'T0FAKE' });
      expect(resultText(listed)).toContain(machine.name);
      await slackbot.close();
    }

    const slackbot = await connectSlackbot(a.url, SIGNING_SECRET);
    await slackbot.call('stop_machine', { machine: machine.name }, { user_id: ADA, team_id: 'T0FAKE' });
    await slackbot.close();
    const confirmation = await confirmationTo(c.slack, ADA);
    // Two clicks (a double click): two requests, each signed on its own, one to each replica.
    const clickOf = () => confirmationClick(c.slack, c.requests, confirmation, ActionId.slackbotConfirm, ADA);
    await Promise.all([c.send(a, clickOf()), c.send(b, clickOf())]);

    const stops = () =>
      c.emulator.state
        .requests()
        .filter((request) => request.path.includes(machine.id) && request.path.endsWith('/stop'));
    await expect.poll(() => stops().length).toBe(1);
    await expect
      .poll(() =>
        c.slack.calls('chat.update').some((call) => textOf(call.args).includes('Already confirmed')),
      )
      .toBe(true);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(stops()).toHaveLength(1);
  });
});
