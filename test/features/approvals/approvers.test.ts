import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { DEMO_SEED } from '../../../tools/emulator/index.js';
import type { ApiCall } from '../../support/fake-slack.js';
import { TEAM_ID, USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { cardValue, eventually, settle, textOf } from '../machines/machine-kit.js';

/** The contract requires a billing type; v1's create has no such field, so its requests name none. */
const BILLING = process.env.TEST_PAPERSPACE_DIALECT === 'v1' ? '' : ' billingType=hourly';

// Orbital Labs with more people than the demo: Lee, a second administrator; Kim, a second member; and
// Noor, a member who owns a machine and never links a key. Who is asked must follow what Paperspace
// says about each of them, never who happens to have linked a key.
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const LEE = 'U0LEE';
const KIM = 'U0KIM';
const NOOR = 'U0NOOR';
const CHANNEL = 'C0OPS';
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';

const teammate = (id: string, first: string, role: 'admin' | 'member') => ({
  id: `u1${first.toLowerCase()}`,
  email: `${first.toLowerCase()}@orbital.example`,
  firstname: first,
  lastname: id,
  team: 'te1orbit',
  role,
  apiKey: `demo-key-${first.toLowerCase()}-team-${role}`,
  accessToken: `demo-token-${first.toLowerCase()}-team-${role}`,
});
const PEOPLE = {
  lee: teammate('Lin', 'Lee', 'admin'),
  kim: teammate('Ono', 'Kim', 'member'),
  noor: teammate('Ali', 'Noor', 'member'),
};

const bot = useTestBot({
  emulator: { seed: { ...DEMO_SEED, users: [...(DEMO_SEED.users ?? []), ...Object.values(PEOPLE)] } },
  linked: ['maya', 'sam'],
  recordPaperspaceHeaders: true,
  async prepare(started) {
    await linkAs(started.vault, LEE, PEOPLE.lee);
    await linkAs(started.vault, KIM, PEOPLE.kim);
  },
});

async function linkAs(
  vault: typeof bot.vault,
  slackId: string,
  person: { id: string; email: string; apiKey: string },
): Promise<void> {
  await vault.link(
    { teamId: TEAM_ID, userId: slackId },
    { apiKey: person.apiKey, account: { userId: person.id, email: person.email, teamId: 'te1orbit' } },
  );
}

type Block = { type: string; elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

const postsTo = (channel: string) => (call: ApiCall) =>
  call.method === 'chat.postMessage' && call.args.channel === channel;

/** Who a request about `name` was posted to, once the requester's receipt is out. */
async function askedAbout(name: string, requester: string): Promise<string[]> {
  await bot.slack.waitFor((call) => postsTo(requester)(call) && textOf(call.args).includes('Withdraw'));
  return bot.slack
    .calls()
    .filter(
      (call) =>
        call.method === 'chat.postMessage' &&
        call.args.channel !== requester &&
        textOf(call.args.blocks).includes(name) &&
        textOf(call.args.blocks).includes(ActionId.requestApprove),
    )
    .map((call) => String(call.args.channel))
    .sort();
}

/** A member types an inline create, Paperspace refuses it, and they click Send request. */
async function asksToCreate(userId: string, name: string, paperspaceUserId: string): Promise<void> {
  const command = bot.requests.slashCommand({
    text: `create machineName=${name} region=CA1 machineType=C4 size=50${BILLING} templateId=t04azgph userId=${paperspaceUserId}`,
    userId,
    channelId: CHANNEL,
  });
  await bot.send(command);
  const offer = await bot.slack.waitForResponse(command.responseUrlId ?? '');
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestCreate,
      value: buttonValue(offer.blocks, ActionId.requestCreate),
      userId,
      channelId: CHANNEL,
    }),
  );
}

async function click(actionId: string, value: string, userId: string) {
  const action = bot.requests.blockAction({
    actionId,
    value,
    userId,
    channelId: `D${userId}`,
    message: { ts: '1700000000.000100' },
  });
  await bot.send(action);
  return () =>
    bot.slack
      .responses(action.responseUrlId ?? '')
      .map((post) => textOf(post))
      .join('\n');
}

/** The "Waiting for you" part of what `/ps requests` answers this person. */
async function waitingFor(userId: string): Promise<string> {
  const command = bot.requests.slashCommand({ text: 'requests', userId, channelId: CHANNEL });
  await bot.send(command);
  const text = textOf((await bot.slack.waitForResponse(command.responseUrlId ?? '')).blocks);
  return text.slice(text.indexOf('Waiting for you'));
}

describe("a member's create request", () => {
  it.skipIf(!onV1)('goes to the administrators v1 lists, never to another member', async () => {
    await asksToCreate(SAM, 'sam-v1-ask', USERS.sam.emulatorUserId);
    expect(await askedAbout('sam-v1-ask', SAM)).toEqual([LEE, MAYA].sort());
    const request = bot.slack.calls().find(postsTo(MAYA));
    expect(textOf(request?.args.blocks)).not.toContain('does not say who administers');
  });

  it.skipIf(onV1)(
    'says Paperspace does not name administrators, then goes only to those whose creates it accepted',
    async () => {
      await asksToCreate(SAM, 'sam-legacy-ask', USERS.sam.emulatorUserId);
      // Nothing is known yet but that Sam was refused: every other linked teammate is asked, and told why.
      expect(await askedAbout('sam-legacy-ask', SAM)).toEqual([KIM, LEE, MAYA].sort());
      const toMaya = bot.slack.calls().find(postsTo(MAYA));
      expect(textOf(toMaya?.args.blocks)).toContain('does not say who administers a team');
      const requestId = buttonValue(toMaya?.args.blocks, ActionId.requestApprove);

      // Kim, a member, tries to approve: Paperspace refuses her key, and the request stays open.
      const toldKim = await click(ActionId.requestApprove, requestId, KIM);
      await eventually(() => (toldKim().includes('stays open') ? true : undefined));
      expect((await bot.store.approvals.get(requestId))?.status).toBe('open');
      await click(ActionId.requestApprove, requestId, MAYA);
      await eventually(() => bot.emulator.state.machineByName('sam-legacy-ask'));

      // Paperspace has now shown Maya administers the team, and Sam and Kim do not.
      bot.slack.reset();
      await asksToCreate(KIM, 'kim-legacy-ask', PEOPLE.kim.id);
      expect(await askedAbout('kim-legacy-ask', KIM)).toEqual([MAYA]);
      const second = bot.slack.calls().find(postsTo(MAYA));
      expect(textOf(second?.args.blocks)).toContain('whose creates Paperspace has accepted');
    },
  );
});

describe.skipIf(onV1)('on the legacy API, a create a teammate makes themselves', () => {
  it('shows Paperspace accepted them as an administrator, and later requests reach them', async () => {
    const command = bot.requests.slashCommand({
      text: `create machineName=lee-own region=CA1 machineType=C4 size=50${BILLING} templateId=t04azgph userId=u1lee`,
      userId: LEE,
      channelId: CHANNEL,
    });
    await bot.send(command);
    await eventually(() => bot.emulator.state.machineByName('lee-own'));
    bot.slack.reset();
    await asksToCreate(KIM, 'kim-asks-again', PEOPLE.kim.id);
    expect(await askedAbout('kim-asks-again', KIM)).toEqual([LEE, MAYA].sort());
  });
});

describe.skipIf(onV1)('a start of a machine whose owner has not linked a key', () => {
  it('names the owner at once, and with an approvals channel lets the request wait there for them', async () => {
    const [machineId = ''] = bot.emulator.state.addMachines(1, {
      owner: PEOPLE.noor.id,
      state: 'off',
      namePrefix: 'noor',
    });
    const name = bot.emulator.state.machine(machineId)?.name ?? '';
    const startClick = () => {
      const start = bot.requests.blockAction({
        actionId: ActionId.machineStart,
        value: cardValue(machineId, name),
        userId: SAM,
        channelId: CHANNEL,
        message: { ts: '1600000000.000555' },
      });
      return bot.send(start).then(() => bot.slack.waitForResponse(start.responseUrlId ?? ''));
    };
    const first = await startClick();
    expect(first.text).toContain(
      `Only the owner of *${name}*, Noor Ali (noor@orbital.example), can start it`,
    );
    expect(first.text).toContain('/ps approvals #channel');
    expect(textOf(first.blocks)).not.toContain(ActionId.requestPower);
    await settle();
    expect(await bot.store.approvals.openBy(TEAM_ID, SAM, Date.now())).toEqual([]);

    const set = bot.requests.slashCommand({ text: 'approvals <#C0APPROVE|approvals>', userId: MAYA });
    await bot.send(set);
    await bot.slack.waitForResponse(set.responseUrlId ?? '');
    const offer = await startClick();
    expect(offer.text).toContain('I can post your request in <#C0APPROVE>');
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestPower,
        value: buttonValue(offer.blocks, ActionId.requestPower),
        userId: SAM,
        channelId: CHANNEL,
      }),
    );
    const posted = await bot.slack.waitFor(
      (call) => postsTo('C0APPROVE')(call) && textOf(call.args.blocks).includes(name),
    );
    expect(textOf(posted.args.blocks)).toContain('Noor Ali');
    const requestId = buttonValue(posted.args.blocks, ActionId.requestApprove);

    // An administrator cannot start Noor's machine either: only the owner decides.
    const toldMaya = await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (toldMaya().includes('Only the owner') ? true : undefined));
    expect(bot.emulator.state.machine(machineId)?.state).toBe('off');

    await linkAs(bot.vault, NOOR, PEOPLE.noor);
    // It waits for Noor now, and never for the administrator who cannot decide it.
    expect(await waitingFor(NOOR)).toContain(name);
    expect(await waitingFor(MAYA)).not.toContain(name);
    await click(ActionId.requestApprove, requestId, NOOR);
    await eventually(() => (bot.emulator.state.machine(machineId)?.state === 'starting' ? true : undefined));
    const starts = bot.paperspaceRequests.filter((r) => r.path.includes(`${machineId}/start`));
    expect(starts.map((r) => r.headers['x-api-key'])).toEqual([PEOPLE.noor.apiKey]);
    await bot.slack.waitFor(
      (call) => postsTo(SAM)(call) && textOf(call.args).includes('approved your request'),
    );
  });
});

describe.skipIf(!onV1)('a start on v1, where Paperspace names no owner', () => {
  it("asks the team's administrators of a machine with no owner yet; one Paperspace refuses leaves it open, and the owner's starts it", async () => {
    const start = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: cardValue('psorb002', 'team-build'),
      userId: SAM,
      channelId: CHANNEL,
      message: { ts: '1600000000.000666' },
    });
    await bot.send(start);
    const offer = await bot.slack.waitForResponse(start.responseUrlId ?? '');
    expect(offer.text).toContain('Paperspace does not say who that is');
    await bot.send(
      bot.requests.blockAction({
        actionId: ActionId.requestPower,
        value: buttonValue(offer.blocks, ActionId.requestPower),
        userId: SAM,
        channelId: CHANNEL,
      }),
    );
    // team-build has no owner yet by the owner rule: its team's administrators answer for it, not Kim.
    expect(await askedAbout('team-build', SAM)).toEqual([LEE, MAYA].sort());
    const toLee = bot.slack.calls().find(postsTo(LEE));
    expect(textOf(toLee?.args.blocks)).toContain(
      'it has no owner yet here, so this went to the team’s administrators',
    );
    const requestId = buttonValue(toLee?.args.blocks, ActionId.requestApprove);

    const toldLee = await click(ActionId.requestApprove, requestId, LEE);
    await eventually(() => (toldLee().includes('stays open') ? true : undefined));
    expect(bot.emulator.state.machine('psorb002')?.state).toBe('off');
    await click(ActionId.requestApprove, requestId, MAYA);
    await eventually(() => (bot.emulator.state.machine('psorb002')?.state === 'starting' ? true : undefined));
    const starts = bot.paperspaceRequests.filter((r) => r.path.includes('psorb002/start'));
    expect(starts.map((r) => r.headers.authorization)).toEqual(
      [USERS.sam.apiKey, PEOPLE.lee.apiKey, USERS.maya.apiKey].map((key) => `Bearer ${key}`),
    );
  });
});
