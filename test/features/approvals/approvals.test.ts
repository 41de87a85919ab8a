import { describe, expect, it } from 'vitest';
import { ActionId, CallbackId } from '../../../src/slack/ids.js';
import { openSqliteClient } from '../../../src/store/sqlite-client.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
import type { RecordedRequest } from '../../support/recording-proxy.js';
import { TEAM_ID, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { auditOf, cardValue, eventually, settle, textOf } from '../machines/machine-kit.js';

/** The contract requires a billing type; v1's create has no such field, so its requests name none. */
const BILLING = process.env.TEST_PAPERSPACE_DIALECT === 'v1' ? '' : ' billingType=hourly';

// Sam is a member of Maya's Paperspace team: Paperspace lets only Maya (an administrator) create, and
// only a machine's owner power it. Both clocks stand still unless a test moves them.
const clock = createFakeClock();
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
/** A second Slack person linked with an administrator's key: a second approver. */
const LEE = 'U0LEE';
const CHANNEL = 'C0OPS';
const HOUR = 3_600_000;

const bot = useTestBot({
  emulator: { now: clock.now },
  now: clock.now,
  linked: ['ada', 'maya', 'sam'],
  recordPaperspaceHeaders: true,
  async prepare(started) {
    const maya = started.emulator.state.user(USERS.maya.emulatorUserId);
    if (!maya) throw new Error('no Maya in the seed');
    await started.vault.link(
      { teamId: TEAM_ID, userId: LEE },
      { apiKey: USERS.maya.apiKey, account: { userId: maya.id, email: maya.email, teamId: maya.accountId } },
    );
  },
});

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

/** The API key a recorded Paperspace call carried: `X-Api-Key` (contract) or `Bearer` (v1). */
function keyOf(request: RecordedRequest): string | undefined {
  const header = request.headers['x-api-key'] ?? request.headers.authorization;
  return typeof header === 'string' ? header.replace(/^Bearer /, '') : undefined;
}

/** The Paperspace ids of a machine's accessors, as v1 lists them to its owner. */
async function accessorsOf(machineId: string, ownerKey: string): Promise<string[]> {
  const response = await fetch(`${bot.emulator.url}/v1/machines/${machineId}/accessors`, {
    headers: { authorization: `Bearer ${ownerKey}` },
  });
  const body = (await response.json()) as { items: { user: { id: string } }[] };
  return body.items.map((item) => item.user.id);
}

const postsTo = (channel: string) => (call: ApiCall) =>
  call.method === 'chat.postMessage' && call.args.channel === channel;

/** Sam types an inline create; Paperspace refuses him; he clicks Send request. Answers Maya's copy. */
async function samAsksToCreate(name: string) {
  const command = bot.requests.slashCommand({
    text: `create machineName=${name} region=CA1 machineType=C4 size=50${BILLING} templateId=t04azgph userId=u1sam`,
    userId: SAM,
    channelId: CHANNEL,
  });
  await bot.send(command);
  const offer = await bot.slack.waitForResponse(command.responseUrlId ?? '');
  expect(offer.text).toContain('Only your team');
  expect(bot.emulator.state.machineByName(name)).toBeUndefined();
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestCreate,
      value: buttonValue(offer.blocks, ActionId.requestCreate),
      userId: SAM,
      channelId: CHANNEL,
    }),
  );
  const toMaya = await bot.slack.waitFor(
    (call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes(name),
  );
  return { toMaya, requestId: buttonValue(toMaya.args.blocks, ActionId.requestApprove) };
}

/** Clicks a request button; answers what the clicker alone was told (through the response_url). */
async function click(actionId: string, value: string, userId: string) {
  const action = bot.requests.blockAction({
    actionId,
    value,
    userId,
    channelId: `D${userId}`,
    message: { ts: '1700000000.000100' },
  });
  await bot.send(action);
  return {
    toldClicker: () =>
      bot.slack
        .responses(action.responseUrlId ?? '')
        .map((post) => textOf(post))
        .join('\n'),
  };
}

describe('a team member asks to create a machine', () => {
  it('is created for the member (their machine; on v1 shared with them) once an administrator approves with their own key', async () => {
    const { toMaya, requestId } = await samAsksToCreate('sam-approved');
    expect(textOf(toMaya.args.blocks)).toContain('Machine type: *C4');
    expect(textOf(toMaya.args.blocks)).toContain('Estimated rate');
    await bot.slack.waitFor((call) => postsTo(SAM)(call) && textOf(call.args.blocks).includes('Withdraw'));

    await click(ActionId.requestApprove, requestId, MAYA);
    const machine = await eventually(() => bot.emulator.state.machineByName('sam-approved'));
    const creates = bot.paperspaceRequests.filter(
      (r) =>
        r.method === 'POST' &&
        (r.path.includes('createSingleMachinePublic') || /\/v1\/machines\/?$/.test(r.path)),
    );
    // The member's own create, which Paperspace refused, then the approver's.
    expect(creates.map(keyOf)).toEqual([USERS.sam.apiKey, USERS.maya.apiKey]);
    const told = await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('approved your request'),
    );
    expect(textOf(told.args)).toContain(`<@${MAYA}>`);
    if (bot.dialect === 'v1') {
      // v1 creates no machine for someone else: the closest it allows is the requester as accessor.
      expect(machine.userId).toBe(USERS.maya.emulatorUserId);
      expect(await accessorsOf(machine.id, USERS.maya.apiKey)).toEqual([USERS.sam.emulatorUserId]);
      expect(textOf(told.args)).toContain('you were given access to it');
    } else {
      expect(machine.userId).toBe(USERS.sam.emulatorUserId);
    }
    // The live card, in the thread of the request, watched.
    const card = await bot.slack.waitFor(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.thread_ts !== undefined &&
        textOf(call.args.blocks).includes('sam-approved'),
    );
    expect(card.args.thread_ts).toBeDefined();
    await eventually(() => bot.watchRequests.find((watch) => watch.machineId === machine.id));
    const audit = await bot.store.audit.list({ resourceId: machine.id, limit: 5 });
    expect(audit.map((record) => [record.action, record.userId])).toEqual(
      expect.arrayContaining([
        ['approval.create', MAYA],
        ['machine.create', MAYA],
      ]),
    );
    expect((await bot.store.audit.list({ resourceId: requestId, limit: 5 })).map((r) => r.action)).toContain(
      'approval.request',
    );
  });

  it('creates nothing when denied, and tells the member the reason', async () => {
    const { requestId } = await samAsksToCreate('sam-denied');
    await click(ActionId.requestDeny, requestId, MAYA);
    await bot.slack.waitFor('views.open');
    await bot.send(
      bot.requests.viewSubmission({
        callbackId: CallbackId.denyRequest,
        userId: MAYA,
        privateMetadata: bot.sealMetadata(JSON.stringify({ requestId })),
        values: { deny_reason: { deny_reason_input: 'use the shared box' } },
      }),
    );
    const told = await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('denied your request'),
    );
    expect(textOf(told.args)).toContain('use the shared box');
    expect((await bot.store.approvals.get(requestId))?.status).toBe('denied');
    await click(ActionId.requestApprove, requestId, MAYA);
    await settle(300);
    expect(bot.emulator.state.machineByName('sam-denied')).toBeUndefined();
  });

  it('creates one machine when two administrators approve at the same moment', async () => {
    const { requestId } = await samAsksToCreate('sam-race');
    const clicks = await Promise.all([
      click(ActionId.requestApprove, requestId, MAYA),
      click(ActionId.requestApprove, requestId, LEE),
    ]);
    await eventually(() => bot.emulator.state.machineByName('sam-race'));
    const told = await eventually(() => {
      const answers = clicks.map((one) => one.toldClicker());
      return answers.some((text) => text.includes('already handled')) ? answers : undefined;
    });
    expect(told.filter((text) => text.includes('already handled'))).toHaveLength(1);
    await settle(300);
    expect(bot.emulator.state.machines().filter((m) => m.name === 'sam-race')).toHaveLength(1);
  });

  it('cannot be approved once expired, and the member is told it expired', async () => {
    const { requestId } = await samAsksToCreate('sam-expired');
    clock.advance(25 * HOUR);
    const late = await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (late.toldClicker().includes('has expired') ? true : undefined));
    await bot.scheduler.tick();
    await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('expired before anyone decided'),
    );
    expect((await bot.store.approvals.get(requestId))?.status).toBe('expired');
    expect(bot.emulator.state.machineByName('sam-expired')).toBeUndefined();
  });

  it('can be withdrawn by the member, after which it cannot be approved', async () => {
    const { requestId } = await samAsksToCreate('sam-withdrawn');
    await click(ActionId.requestWithdraw, requestId, SAM);
    await eventually(async () =>
      (await bot.store.approvals.get(requestId))?.status === 'withdrawn' ? true : undefined,
    );
    const late = await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (late.toldClicker().includes('already handled') ? true : undefined));
    expect(bot.emulator.state.machineByName('sam-withdrawn')).toBeUndefined();
  });
});

describe("a member clicks Start on the owner's machine", () => {
  async function samAsksToStart(machineId: string, name: string) {
    const start = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue(machineId, name),
      userId: SAM,
      channelId: CHANNEL,
      message: { ts: '1600000000.000777' },
    });
    await bot.send(start);
    const offer = await bot.slack.waitForResponse(start.responseUrlId ?? '');
    // v1 names no owner: there the member's own start is refused first, then the offer comes.
    expect(offer.text).toMatch(/only (the|its) owner/i);
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestPower,
        value: buttonValue(offer.blocks, ActionId.requestPower),
        userId: SAM,
        channelId: CHANNEL,
      }),
    );
    const toMaya = await bot.slack.waitFor(
      (call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes(name),
    );
    return { toMaya, requestId: buttonValue(toMaya.args.blocks, ActionId.requestApprove) };
  }

  const startsOf = (machineId: string) =>
    bot.paperspaceRequests.filter((r) => r.method !== 'GET' && r.path.includes(`${machineId}/start`));

  it("starts it with the owner's key once the owner approves; the member's key never starts it", async () => {
    const { requestId } = await samAsksToStart('psorb002', 'team-build');
    // On v1 the member's own start was sent and refused (Paperspace names no owner beforehand).
    const refusedFirst = bot.dialect === 'v1' ? [USERS.sam.apiKey] : [];
    expect(startsOf('psorb002').map(keyOf)).toEqual(refusedFirst);
    expect(bot.emulator.state.machine('psorb002')?.state).toBe('off');
    await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (bot.emulator.state.machine('psorb002')?.state === 'starting' ? true : undefined));
    expect(startsOf('psorb002').map(keyOf)).toEqual([...refusedFirst, USERS.maya.apiKey]);
    await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('approved your request'),
    );
    const audit = await auditOf(bot, 'psorb002');
    expect(audit).toMatchObject({ action: 'approval.start', userId: MAYA });
  });

  it('lets the member power it without asking again while a standing grant runs', async () => {
    const machineId =
      bot.emulator.state.addMachines(1, {
        owner: USERS.maya.emulatorUserId,
        state: 'off',
        namePrefix: 'grant-',
      })[0] ?? '';
    const name = bot.emulator.state.machine(machineId)?.name ?? '';
    const { toMaya } = await samAsksToStart(machineId, name);
    await click(
      ActionId.requestApproveFor,
      buttonValue(toMaya.args.blocks, ActionId.requestApproveFor),
      MAYA,
    );
    await eventually(() => (bot.emulator.state.machine(machineId)?.state === 'starting' ? true : undefined));
    const told = await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('without asking'),
    );
    // The clock stands still: the grant runs until four hours from now, shown in each reader's zone.
    const until = `<!date^${Math.floor((clock.now() + 4 * 3_600_000) / 1000)}^{date_short_pretty} at {time}|`;
    expect(textOf(told.args)).toContain(`for 4 hours, until ${until}`);
    const approverCopy = bot.slack
      .calls('chat.update')
      .find((call) => textOf(call.args).includes(`Approved for 4 hours, until ${until}`));
    expect(approverCopy, 'the copy Maya clicked says what she approved').toBeDefined();
    expect(textOf(approverCopy?.args)).toContain(`by <@${MAYA}>`);

    // Later the member stops it: no new request, the owner's key makes the call.
    bot.slack.reset();
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.machineStop,
        value: cardValue(machineId, name),
        userId: SAM,
        channelId: CHANNEL,
        message: { ts: '1600000000.000999' },
      }),
    );
    const stops = () => bot.paperspaceRequests.filter((r) => r.path.includes(`${machineId}/stop`));
    await eventually(() => (stops().length > 0 ? true : undefined));
    expect(stops().map(keyOf)).toEqual([USERS.maya.apiKey]);
    expect(bot.slack.calls().some(postsTo(MAYA))).toBe(false);
  });

  it("takes over from the owner's older card of the machine, which says a newer start took over", async () => {
    const machineId =
      bot.emulator.state.addMachines(1, {
        owner: USERS.maya.emulatorUserId,
        state: 'off',
        namePrefix: 'older-',
      })[0] ?? '';
    const name = bot.emulator.state.machine(machineId)?.name ?? '';
    // Maya is already waiting for it to be ready on a card of her own.
    await bot.send(
      bot.requests.slashCommand({ text: `wait ${name} serviceready`, userId: MAYA, channelId: CHANNEL }),
    );
    await eventually(async () => {
      const active = await bot.store.watches.listActive({ machineId });
      return active.length === 1 ? true : undefined;
    });
    const [older] = await bot.store.watches.listActive({ machineId });

    const { requestId } = await samAsksToStart(machineId, name);
    await click(ActionId.requestApprove, requestId, MAYA);
    await bot.slack.waitFor(
      (call) =>
        call.method === 'chat.update' &&
        call.args.ts === older?.messageTs &&
        textOf(call.args).includes(`a newer start by <@${MAYA}> took over`),
    );
    await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('approved your request'),
    );
    // Every copy of the request (Sam's receipt, the approvers') follows the approved start: the first
    // copy's watch did not end the others'.
    const copies = (await bot.store.approvals.get(requestId))?.messages ?? [];
    const active = await bot.store.watches.listActive({ machineId });
    expect(active.map((watch) => watch.id)).not.toContain(older?.id);
    expect(active.map((watch) => watch.threadTs).sort()).toEqual(copies.map((copy) => copy.ts).sort());
    expect(new Set(active.map((watch) => watch.userId))).toEqual(new Set([MAYA, SAM]));
  });
});

describe.runIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
  "on v1, a start of a machine the bot records as someone else's",
  () => {
    it('goes to its owner by the owner rule alone, and starts with their key once they approve', async () => {
      const machineId =
        bot.emulator.state.addMachines(1, {
          owner: USERS.maya.emulatorUserId,
          state: 'off',
          namePrefix: 'claimed-',
        })[0] ?? '';
      const name = bot.emulator.state.machine(machineId)?.name ?? '';
      const claimed = bot.requests.slashCommand({ text: `claim ${name}`, userId: MAYA, channelId: CHANNEL });
      await bot.send(claimed);
      expect((await bot.slack.waitForResponse(claimed.responseUrlId ?? '')).text).toContain('is yours now');
      bot.slack.reset();

      const start = bot.requests.blockAction({
        actionId: ActionId.machineStart,
        value: cardValue(machineId, name),
        userId: SAM,
        channelId: CHANNEL,
        message: { ts: '1600000000.000555' },
      });
      await bot.send(start);
      const offer = await bot.slack.waitForResponse(start.responseUrlId ?? '');
      expect(offer.text).toContain(`Only the owner of *${name}*, <@${MAYA}>, can start it`);
      await bot.send(
        bot.requests.blockAction({
          actionId: ActionId.requestPower,
          value: buttonValue(offer.blocks, ActionId.requestPower),
          userId: SAM,
          channelId: CHANNEL,
        }),
      );
      const toMaya = await bot.slack.waitFor(
        (call) => postsTo(MAYA)(call) && textOf(call.args.blocks).includes(name),
      );
      await bot.slack.waitFor((call) => postsTo(SAM)(call) && textOf(call.args).includes('Withdraw'));
      // Lee holds an administrator's key too, but the machine is Maya's: only she is asked.
      expect(bot.slack.calls().some(postsTo(LEE))).toBe(false);
      expect(textOf(toMaya.args.blocks)).toContain('asks you to start your machine');
      await click(ActionId.requestApprove, buttonValue(toMaya.args.blocks, ActionId.requestApprove), MAYA);
      await eventually(() =>
        bot.emulator.state.machine(machineId)?.state === 'starting' ? true : undefined,
      );
    });
  },
);

describe("a member types /ps stop for the owner's machine", () => {
  it("is offered to ask the owner, and no call is made with the member's key", async () => {
    const command = bot.requests.slashCommand({ text: 'stop maya-trainer', userId: SAM, channelId: CHANNEL });
    await bot.send(command);
    const offer = await bot.slack.waitForResponse(command.responseUrlId ?? '');
    expect(textOf(offer.blocks)).toContain(ActionId.requestPower);
    await settle();
    const stops = bot.paperspaceRequests.filter((r) => r.path.includes('psorb001/stop'));
    if (bot.dialect === 'v1') {
      // v1 names no owner: the member's stop is refused by Paperspace, and the teammates are offered.
      expect(offer.text).toContain('Paperspace refused to stop *maya-trainer* with your key');
      expect(offer.text).toContain(`<@${MAYA}>`);
      expect(stops.map(keyOf)).toEqual([USERS.sam.apiKey]);
      expect(bot.emulator.state.machine('psorb001')?.state).toBe('serviceready');
      return;
    }
    // Lee linked Maya's key too: both are named, either may approve.
    expect(offer.text).toMatch(
      /Only the owner of \*maya-trainer\*, <@U0(MAYA|LEE)> \/ <@U0(MAYA|LEE)>, can stop it\./,
    );
    expect(stops).toEqual([]);
  });
});

describe('/ps requests and /ps approvals', () => {
  it("lists the member's open requests and those waiting for the administrator", async () => {
    await samAsksToCreate('sam-listed');
    const mine = bot.requests.slashCommand({ text: 'requests', userId: SAM, channelId: CHANNEL });
    await bot.send(mine);
    expect(textOf((await bot.slack.waitForResponse(mine.responseUrlId ?? '')).blocks)).toContain(
      'sam-listed',
    );
    const waiting = bot.requests.slashCommand({ text: 'requests', userId: MAYA, channelId: CHANNEL });
    await bot.send(waiting);
    const listed = await bot.slack.waitForResponse(waiting.responseUrlId ?? '');
    expect(textOf(listed.blocks)).toContain(`<@${SAM}> asks to create machine *sam-listed*`);
  });

  it('posts create requests in the approvals channel an administrator set', async () => {
    const set = bot.requests.slashCommand({
      text: 'approvals <#C0APPROVE|approvals>',
      userId: MAYA,
      channelId: CHANNEL,
    });
    await bot.send(set);
    expect((await bot.slack.waitForResponse(set.responseUrlId ?? '')).text).toContain('<#C0APPROVE>');
    bot.slack.reset();
    const command = bot.requests.slashCommand({
      text: `create machineName=sam-channel region=CA1 machineType=C4 size=50${BILLING} templateId=t04azgph userId=u1sam`,
      userId: SAM,
      channelId: CHANNEL,
    });
    await bot.send(command);
    const offer = await bot.slack.waitForResponse(command.responseUrlId ?? '');
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestCreate,
        value: buttonValue(offer.blocks, ActionId.requestCreate),
        userId: SAM,
        channelId: CHANNEL,
      }),
    );
    await bot.slack.waitFor(postsTo('C0APPROVE'));
    await settle();
    expect(bot.slack.calls().some(postsTo(MAYA))).toBe(false);
    const off = bot.requests.slashCommand({ text: 'approvals off', userId: MAYA, channelId: CHANNEL });
    await bot.send(off);
    await bot.slack.waitForResponse(off.responseUrlId ?? '');
  });

  it('refuses a member who tries to choose where requests go', async () => {
    // Paperspace has refused Sam's create (and v1 lists him as a member): he is no administrator.
    await samAsksToCreate('sam-not-admin');
    const set = bot.requests.slashCommand({
      text: 'approvals <#C0SAMS|sams-channel>',
      userId: SAM,
      channelId: CHANNEL,
    });
    await bot.send(set);
    expect((await bot.slack.waitForResponse(set.responseUrlId ?? '')).text).toContain(
      "Only Slack workspace admins and owners can choose where your team's requests go",
    );
    expect((await bot.store.approvals.settingsOf(TEAM_ID, 'te1orbit'))?.channel ?? null).not.toBe('C0SAMS');
    // A Slack workspace admin is still refused when Paperspace shows they are a member of the team.
    bot.slack.setUser({ id: SAM, is_admin: true });
    const again = bot.requests.slashCommand({ text: 'approvals <#C0SAMS|sams-channel>', userId: SAM });
    await bot.send(again);
    expect((await bot.slack.waitForResponse(again.responseUrlId ?? '')).text).toContain(
      "Only your team's administrators can choose where requests go",
    );
    bot.slack.setUser({ id: SAM, is_admin: false });
    expect((await bot.store.approvals.settingsOf(TEAM_ID, 'te1orbit'))?.channel ?? null).not.toBe('C0SAMS');
  });

  it('closes requests after the lifetime an administrator set with --expires', async () => {
    const set = bot.requests.slashCommand({
      text: 'approvals off --expires 2h',
      userId: MAYA,
      channelId: CHANNEL,
    });
    await bot.send(set);
    expect((await bot.slack.waitForResponse(set.responseUrlId ?? '')).text).toContain(
      'Requests stay open for 2 hours',
    );
    const { requestId } = await samAsksToCreate('sam-short-lived');
    const request = await bot.store.approvals.get(requestId);
    expect((request?.expiresAt ?? 0) - (request?.createdAt ?? 0)).toBe(2 * HOUR);
    clock.advance(2 * HOUR + 60_000);
    await bot.scheduler.tick();
    await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('expired before anyone decided'),
    );
    expect((await bot.store.approvals.get(requestId))?.status).toBe('expired');
    const reset = bot.requests.slashCommand({ text: 'approvals off', userId: MAYA, channelId: CHANNEL });
    await bot.send(reset);
    await bot.slack.waitForResponse(reset.responseUrlId ?? '');
  });
});

describe('a request whose stored details cannot be read', () => {
  it('tells whoever clicks it that nothing was done, logs why, lists it as such, and still expires it', async () => {
    const { requestId } = await samAsksToCreate('sam-damaged');
    const raw = openSqliteClient(bot.databasePath);
    await raw.run('UPDATE approval_requests SET details = ? WHERE id = ?', [
      '{"params":"damaged"}',
      requestId,
    ]);
    await raw.close();

    const approval = await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (approval.toldClicker().includes('cannot be read') ? true : undefined));
    const withdrawal = await click(ActionId.requestWithdraw, requestId, SAM);
    await eventually(() => (withdrawal.toldClicker().includes('cannot be read') ? true : undefined));
    expect(bot.emulator.state.machineByName('sam-damaged')).toBeUndefined();
    expect((await bot.store.approvals.get(requestId))?.status).toBe('open');
    expect(bot.logText()).toContain('an approval request cannot be read');

    const mine = bot.requests.slashCommand({ text: 'requests', userId: SAM, channelId: CHANNEL });
    await bot.send(mine);
    const listed = textOf((await bot.slack.waitForResponse(mine.responseUrlId ?? '')).blocks);
    expect(listed).toMatch(/sam-damaged\* \(expires [^)]*\) ⚠️ cannot be read/);

    clock.advance(25 * HOUR);
    await bot.scheduler.tick();
    await bot.slack.waitFor(
      (call) =>
        postsTo(SAM)(call) && textOf(call.args).includes('sam-damaged* expired before anyone decided'),
    );
    expect((await bot.store.approvals.get(requestId))?.status).toBe('expired');
  });
});
