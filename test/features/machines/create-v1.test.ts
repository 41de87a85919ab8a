// /ps create against Paperspace v1, as its OpenAPI describes POST /machines: required name,
// machineType, templateId, region and diskSize; no billing type, owner or new user; startOnCreate sent.
import { describe, expect, it } from 'vitest';
import { CallbackId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from './machine-kit.js';

const clock = createFakeClock();
const MAYA = USERS.maya.slackId;
const CHANNEL = 'C0BUILD';
const bot = useTestBot({ dialect: 'v1', emulator: { now: clock.now }, linked: ['maya'] });

const createCalls = () =>
  bot.emulator.state.requests().filter((entry) => entry.method === 'POST' && entry.path === '/v1/machines');
/** The body of the create request that named the machine. */
const sentFor = (name: string) =>
  createCalls().find((entry) => (entry.body as { name?: string } | undefined)?.name === name)?.body;

async function createInline(text: string) {
  const request = bot.requests.slashCommand({ text: `create ${text}`, userId: MAYA, channelId: CHANNEL });
  await bot.send(request);
  return request;
}

describe('/ps create on v1', () => {
  it("lets an administrator create inline with only v1's fields, and sends nothing v1 does not have", async () => {
    await createInline('machineName=render-1 machineType=A4000 templateId=t04azgph region=ny2 size=100');
    const post = await bot.slack.waitFor('chat.postMessage');
    expect(textOf(post.args.blocks)).toContain('render-1');
    expect(textOf(post.args.blocks)).toContain(`created by <@${MAYA}>`);
    expect(sentFor('render-1')).toEqual({
      name: 'render-1',
      machineType: 'A4000',
      templateId: 't04azgph',
      region: 'ny2',
      diskSize: 100,
      startOnCreate: true,
    });
    expect(bot.emulator.state.machineByName('render-1')?.state).toBe('provisioning');
  });

  it('refuses the contract-only billingType and new-user fields by name, and sends nothing', async () => {
    const request = await createInline(
      'machineName=legacy machineType=A4000 templateId=t04azgph region=ny2 size=100 billingType=hourly email=new@orbital.example',
    );
    const before = createCalls().length;
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain('billingType is not part of a Paperspace v1 create: leave it out');
    expect(reply.text).toContain('email cannot be used: Paperspace v1 creates no users');
    expect(createCalls()).toHaveLength(before);
  });

  it('honours startOnCreate=false: sends it, and the card says the machine was created off', async () => {
    await createInline(
      'machineName=cold-1 machineType=A4000 templateId=t04azgph region=ny2 size=50 startOnCreate=false',
    );
    const post = await bot.slack.waitFor('chat.postMessage');
    expect(textOf(post.args.blocks)).toContain('not started: it stays off once provisioned');
    expect(sentFor('cold-1')).toMatchObject({ startOnCreate: false });
    // The card is posted before the watch is registered: wait for it rather than race it.
    await expect
      .poll(() => bot.watchRequests.find((entry) => entry.machineName === 'cold-1'))
      .toMatchObject({ targetState: 'off', operation: 'create' });
  });

  it('offers the disk sizes only v1 has: 4000 to 16000 GB', async () => {
    await createInline('machineName=big-disk machineType=A4000 templateId=t04azgph region=ny2 size=16000');
    await bot.slack.waitFor('chat.postMessage');
    expect(sentFor('big-disk')).toMatchObject({ diskSize: 16000 });
    const answered = createCalls().find((entry) => entry.body === sentFor('big-disk'));
    expect(answered).toMatchObject({ status: 200, reply: { data: { storageTotal: 16000 * 1024 ** 3 } } });
  });

  it('takes any whole disk size above 0, as v1 does, and refuses 0 before sending anything', async () => {
    await createInline('machineName=odd-disk machineType=A4000 templateId=t04azgph region=ny2 size=77');
    await bot.slack.waitFor('chat.postMessage');
    expect(sentFor('odd-disk')).toMatchObject({ diskSize: 77 });
    expect(bot.emulator.state.machineByName('odd-disk')).toBeDefined();
    const before = createCalls().length;
    const request = await createInline(
      'machineName=no-disk machineType=A4000 templateId=t04azgph region=ny2 size=0',
    );
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(reply.text).toContain('size must be a positive whole number');
    expect(createCalls()).toHaveLength(before);
  });

  it('gives a member access when userId is given, as accessorIds, and requires no owner', async () => {
    await createInline(
      'machineName=shared-1 machineType=A4000 templateId=t04azgph region=ny2 size=50 userId=u1sam',
    );
    await bot.slack.waitFor('chat.postMessage');
    expect(sentFor('shared-1')).toMatchObject({ accessorIds: ['u1sam'] });
  });

  it('lists the team by its id, and by its namespace when Paperspace does not know the id', async () => {
    const usersCalls = () =>
      bot.emulator.state.requests().filter((entry) => /^\/v1\/teams\/[^/]+\/users$/.test(entry.path));
    for (const refuseId of [false, true]) {
      const before = usersCalls().length;
      if (refuseId) {
        bot.emulator.state.failNextRequests({ count: 1, status: 404, path: '/v1/teams/te1orbit/users' });
      }
      bot.slack.reset();
      await bot.send(bot.requests.slashCommand({ text: 'create', userId: MAYA, channelId: CHANNEL }));
      const filled = await bot.slack.waitFor('views.update');
      expect(textOf(filled.args.view)).toContain('sam.rivera@orbital.example');
      const paths = usersCalls()
        .slice(before)
        .map((entry) => `${entry.status} ${entry.path}`);
      expect(paths).toEqual(
        refuseId
          ? ['404 /v1/teams/te1orbit/users', '200 /v1/teams/orbital-labs/users']
          : ['200 /v1/teams/te1orbit/users'],
      );
    }
  });

  it('shows a form without billing or new-user fields, with v1 disk sizes and access instead of an owner', async () => {
    await bot.send(bot.requests.slashCommand({ text: 'create', userId: MAYA, channelId: CHANNEL }));
    await bot.slack.waitFor('views.open');
    const filled = await bot.slack.waitFor('views.update');
    const form = textOf(filled.args.view);
    expect(form).not.toContain('billing_type');
    expect(form).not.toContain('new_user_email');
    expect(form).toContain('12000 or 16000 GB; Paperspace takes any whole number of GB above 0');
    expect(form).toContain('Give access');
    expect(form).toContain(CallbackId.createMachine);
  });
});
