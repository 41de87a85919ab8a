// Requests and approvals end to end on PostgreSQL, with two replicas behind Slack: a click may reach
// either one, and the same click (or two approvers' clicks) may reach both at the same moment.
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { INTENT_GRACE_MS } from '../../src/features/watches/intent-recovery.js';
import { ActionId } from '../../src/slack/ids.js';
import { cardValue, eventually, settle, textOf } from '../features/machines/machine-kit.js';
import { useTestSchema } from '../store/postgres-test-database.js';
import type { ApiCall } from '../support/fake-slack.js';
import { USERS } from '../support/test-bot.js';
import { type Replica, type ReplicaCluster, startReplicaCluster } from './cluster.js';

const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const CHANNEL = 'C0OPS';
const HOUR = 3_600_000;

const schema = useTestSchema();
let c: ReplicaCluster;
let running: ReplicaCluster | undefined;
let a: Replica;
let b: Replica;

beforeEach(async () => {
  c = await startReplicaCluster({ databaseUrl: schema.url, replicaIds: ['replica-a', 'replica-b'] });
  running = c;
  await c.link('maya');
  await c.link('sam');
  [a, b] = c.replicas as [Replica, Replica];
});
afterEach(async () => {
  await running?.close();
  running = undefined;
});

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

const postsTo = (channel: string, words: string) => (call: ApiCall) =>
  call.method === 'chat.postMessage' && call.args.channel === channel && textOf(call.args).includes(words);

/** Clicks a button on one replica; answers what the clicker alone was told. */
async function click(replica: Replica, actionId: string, value: string, userId: string) {
  const action = c.requests.blockAction({
    actionId,
    value,
    userId,
    channelId: `D${userId}`,
    message: { ts: '1700000000.000100' },
  });
  await c.send(replica, action);
  return () =>
    c.slack
      .responses(action.responseUrlId ?? '')
      .map((post) => textOf(post))
      .join('\n');
}

/** Sam's refused create on replica A, his Send request on B; answers the id Maya's copy carries. */
async function samAsksToCreate(name: string): Promise<string> {
  const command = c.requests.slashCommand({
    text: `create machineName=${name} region=CA1 machineType=C4 size=50 billingType=hourly templateId=t04azgph userId=u1sam`,
    userId: SAM,
    channelId: CHANNEL,
  });
  await c.send(a, command);
  const offer = await c.slack.waitForResponse(command.responseUrlId ?? '');
  await click(b, ActionId.requestCreate, buttonValue(offer.blocks, ActionId.requestCreate), SAM);
  const toMaya = await c.slack.waitFor(postsTo(MAYA, name));
  return buttonValue(toMaya.args.blocks, ActionId.requestApprove);
}

/** Sam's Start on Maya's team-build reaches replica A, his Send request B; answers Maya's copy. */
async function samAsksToStartTeamBuild(): Promise<ApiCall> {
  const start = c.requests.blockAction({
    actionId: ActionId.machineStart,
    value: cardValue('psorb002', 'team-build'),
    userId: SAM,
    channelId: CHANNEL,
    message: { ts: '1600000000.000777' },
  });
  await c.send(a, start);
  const offer = await c.slack.waitForResponse(start.responseUrlId ?? '');
  await click(b, ActionId.requestPower, buttonValue(offer.blocks, ActionId.requestPower), SAM);
  return c.slack.waitFor(postsTo(MAYA, 'team-build'));
}

describe('requests and approvals on two replicas sharing PostgreSQL', () => {
  it('create one machine, owned by the member, when approvals reach both replicas at once', async () => {
    const requestId = await samAsksToCreate('sam-two-replicas');
    const told = await Promise.all([
      click(a, ActionId.requestApprove, requestId, MAYA),
      click(b, ActionId.requestApprove, requestId, MAYA),
    ]);
    const machine = await eventually(() => c.emulator.state.machineByName('sam-two-replicas'));
    expect(machine.userId).toBe(USERS.sam.emulatorUserId);
    await eventually(() => (told.some((answer) => answer().includes('already handled')) ? true : undefined));
    await c.slack.waitFor(postsTo(SAM, 'approved your request'));
    await settle(300);
    expect(c.emulator.state.machines().filter((m) => m.name === 'sam-two-replicas')).toHaveLength(1);
    expect(c.slack.calls().filter(postsTo(SAM, 'approved your request'))).toHaveLength(1);
  });

  it('expire a request once when both replicas tick together, after which it cannot be approved', async () => {
    const requestId = await samAsksToCreate('sam-expires');
    c.clock.advance(25 * HOUR);
    const late = await click(b, ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (late().includes('has expired') ? true : undefined));
    await c.tickAll();
    await c.slack.waitFor(postsTo(SAM, 'expired before anyone decided'));
    expect(c.slack.calls().filter(postsTo(SAM, 'expired before anyone decided'))).toHaveLength(1);
    expect(c.emulator.state.machineByName('sam-expires')).toBeUndefined();
  });

  it('list a request on either replica, and honour a withdrawal made on the other', async () => {
    const requestId = await samAsksToCreate('sam-withdraws');
    const list = c.requests.slashCommand({ text: 'requests', userId: MAYA, channelId: CHANNEL });
    await c.send(b, list);
    expect(textOf((await c.slack.waitForResponse(list.responseUrlId ?? '')).blocks)).toContain(
      'sam-withdraws',
    );
    await click(a, ActionId.requestWithdraw, requestId, SAM);
    await eventually(async () =>
      (await b.store.approvals.get(requestId))?.status === 'withdrawn' ? true : undefined,
    );
    const late = await click(b, ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (late().includes('already handled') ? true : undefined));
    const mine = c.requests.slashCommand({ text: 'requests', userId: SAM, channelId: CHANNEL });
    await c.send(a, mine);
    expect(textOf((await c.slack.waitForResponse(mine.responseUrlId ?? '')).blocks)).not.toContain(
      'sam-withdraws',
    );
    expect(c.emulator.state.machineByName('sam-withdraws')).toBeUndefined();
  });

  it("let a standing grant given on one replica power the machine on the other, with the owner's key", async () => {
    const toMaya = await samAsksToStartTeamBuild();
    await click(
      a,
      ActionId.requestApproveFor,
      buttonValue(toMaya.args.blocks, ActionId.requestApproveFor),
      MAYA,
    );
    await c.slack.waitFor(postsTo(SAM, 'without asking'));

    const stop = c.requests.blockAction({
      actionId: ActionId.machineStop,
      value: cardValue('psorb002', 'team-build'),
      userId: SAM,
      channelId: CHANNEL,
      message: { ts: '1600000000.000778' },
    });
    await c.send(b, stop);
    const powered = () =>
      c.emulator.state
        .requests()
        .filter((r) => r.method === 'POST' && /psorb002\/(start|stop)$/.test(r.path))
        .map((r) => [r.path.split('/').at(-1), r.userId]);
    await eventually(() => (powered().length === 2 ? true : undefined));
    expect(powered()).toEqual([
      ['start', USERS.maya.emulatorUserId],
      ['stop', USERS.maya.emulatorUserId],
    ]);
  });

  it('follow an approved start to the end when the replica that sent it died before placing its card', async () => {
    const toMaya = await samAsksToStartTeamBuild();
    const copy = { channel: String(toMaya.answer?.channel), ts: String(toMaya.answer?.ts) };
    // Slack takes the card in the copy's thread, but replica A never hears back: it dies meanwhile.
    c.slack.script('chat.postMessage', { channel: copy.channel, delayMs: 60_000 });
    await click(a, ActionId.requestApprove, buttonValue(toMaya.args.blocks, ActionId.requestApprove), MAYA);
    await c.slack.waitFor((call) => call.method === 'chat.postMessage' && call.args.thread_ts === copy.ts);
    expect(c.emulator.state.machine('psorb002')?.state).toBe('starting');
    await a.crash();

    c.clock.advance(INTENT_GRACE_MS + 1000);
    const completions = () =>
      c.slack
        .calls('chat.postMessage')
        .filter((call) => call.answer?.ok === true && /\*team-build\* is .*ready/i.test(textOf(call.args)));
    for (let tick = 0; tick < 8 && completions().length === 0; tick++) {
      await c.tickAll();
      await settle(200);
      c.clock.advance(5000);
    }
    expect(completions()).toHaveLength(1);
    expect(completions()[0]?.args.thread_ts).toBe(copy.ts);
  });
});
