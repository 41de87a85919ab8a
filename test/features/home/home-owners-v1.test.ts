// Whose machines a person sees as theirs on Paperspace v1, which names no owner: the bot's one owner
// rule decides, on the App Home and in /ps list alike. A machine made for Sam (his request, approved)
// or claimed by him is his; Maya's own is hers and offers Sam no Settings, Access or Destroy; a team
// machine nobody owns says so, offers Sam "This is mine" and Maya "Assign to…"; once Sam claims it, it
// moves to his machines. Through signed requests, the strict fake Slack and the emulator's v1 routes.
import { describe, expect, it } from 'vitest';
import { machineIdFromBlockId } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId, MachineOverflowOption } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command } from '../account/helpers.js';
import { createdOnApproval } from '../approvals/approved-create.js';
import { eventually, textOf } from '../machines/machine-kit.js';

const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;

const bot = useTestBot({ dialect: 'v1', linked: ['maya', 'sam'] });

type Element = {
  action_id?: string;
  value?: string;
  options?: { value: string }[];
};
type Block = { type: string; block_id?: string; text?: { text: string }; elements?: Element[] };

/** The App Home published for `userId` after it is opened. */
async function homeOf(userId: string): Promise<Block[]> {
  const before = bot.slack.calls('views.publish').length;
  await bot.send(bot.requests.event({ type: 'app_home_opened', user: userId, tab: 'home' }));
  const publish = await eventually(() =>
    bot.slack
      .calls('views.publish')
      .slice(before)
      .find((call) => call.args.user_id === userId),
  );
  return (publish.args.view as { blocks: Block[] }).blocks;
}

/** The machine ids of the rows under the Home's "Your machines" header and under "Team machines". */
function sections(blocks: Block[]): { yours: string[]; team: string[]; headers: string[] } {
  const yours: string[] = [];
  const team: string[] = [];
  const headers: string[] = [];
  let into: string[] | undefined;
  for (const block of blocks) {
    if (block.type === 'header') {
      const header = block.text?.text ?? '';
      headers.push(header);
      into = header.startsWith('Your machines')
        ? yours
        : header.startsWith('Team machines')
          ? team
          : undefined;
    }
    const id = machineIdFromBlockId(block.block_id ?? '');
    if (id !== undefined) into?.push(id);
  }
  return { yours, team, headers };
}

/** A machine's row: its summary line and its action ids, with the overflow's options. */
function rowOf(blocks: unknown, machineId: string) {
  const all = blocks as Block[];
  const at = all.findIndex((block) => machineIdFromBlockId(block.block_id ?? '') === machineId);
  if (at < 0) throw new Error(`no row of ${machineId}`);
  const summary = all
    .slice(0, at)
    .reverse()
    .find((block) => block.type === 'section');
  const elements = all[at]?.elements ?? [];
  return {
    summary: summary?.text?.text ?? '',
    actions: elements.map((element) => element.action_id),
    menu: elements.flatMap((element) => element.options ?? []).map((option) => option.value),
    claimValue: elements.find((element) => element.action_id === ActionId.machineClaim)?.value,
  };
}

const MANAGE = [MachineOverflowOption.settings, MachineOverflowOption.access, MachineOverflowOption.destroy];

/** Sam asks for a machine, as a member must, and Maya approves it: the bot makes it for Sam. */
async function samGetsMachine(name: string): Promise<string> {
  const machine = await createdOnApproval(bot, {
    requester: SAM,
    approver: MAYA,
    channelId: 'C0OPS',
    create: `machineName=${name} region=CA1 machineType=C4 size=50 templateId=t04azgph`,
  });
  // The owner is recorded right after the create: wait for the card to say so.
  await eventually(async () =>
    (await bot.store.machineOwners.ownersOf(bot.slack.teamId, [machine.id])).get(machine.id),
  );
  return machine.id;
}

describe('whose machines are whose on API v1', () => {
  it('shows a member no machine as his until one is made for him, and names nobody as owner of the rest', async () => {
    const before = sections(await homeOf(SAM));
    expect(before.headers).toContain('Your machines (0)');
    expect(before.yours).toEqual([]);
    expect(before.team).toContain('psorb004');

    const made = await samGetsMachine('sam-made');
    const home = await homeOf(SAM);
    const after = sections(home);
    expect(after.yours).toEqual([made]);
    expect(after.headers).toContain('Your machines (1)');
    expect(after.team).not.toContain(made);
    const own = rowOf(home, made);
    expect(own.summary).not.toContain('owned by');
    expect(own.menu).toEqual(expect.arrayContaining(MANAGE));

    // Nobody owns sam-dev yet: it says so, and Sam may claim it but not manage or power it.
    const unowned = rowOf(home, 'psorb004');
    expect(unowned.summary).toContain('no owner yet');
    expect(unowned.actions).toContain(ActionId.machineClaim);
    expect(unowned.actions).toContain(ActionId.requestPower);
    expect(unowned.actions).not.toContain(ActionId.machineStart);
    expect(unowned.menu).toEqual([]);
  });

  it("names Maya as her machine's owner and offers Sam no Settings, Access or Destroy on it", async () => {
    await bot.send(
      bot.requests.slashCommand({
        text: 'create machineName=maya-made region=CA1 machineType=C4 size=50 templateId=t04azgph',
        userId: MAYA,
      }),
    );
    const made = await eventually(() => bot.emulator.state.machineByName('maya-made'));
    await eventually(async () =>
      (await bot.store.machineOwners.ownersOf(bot.slack.teamId, [made.id])).get(made.id),
    );

    const samList = await command(bot, 'sam', 'list');
    const row = rowOf(samList.blocks, made.id);
    expect(row.summary).toContain(`owned by <@${MAYA}>`);
    expect(row.menu).toEqual([]);
    expect(row.actions).not.toContain(ActionId.machineClaim);
    expect(row.actions).not.toContain(ActionId.machineStop);

    const mayaHome = await homeOf(MAYA);
    expect(sections(mayaHome).yours).toContain(made.id);
    // Maya administers the team: she may assign a machine nobody owns, and manage it.
    const unowned = rowOf(mayaHome, 'psorb005');
    expect(unowned.menu).toEqual(expect.arrayContaining([...MANAGE, MachineOverflowOption.assign]));
    expect(unowned.summary).toContain('no owner yet');
  });

  it('moves a machine Sam claims with This is mine to his machines, and no longer offers it to claim', async () => {
    const list = await command(bot, 'sam', 'list');
    const click = bot.requests.blockAction({
      actionId: ActionId.machineClaim,
      value: rowOf(list.blocks, 'psorb003').claimValue,
      blockId: 'machine_actions:psorb003',
      userId: SAM,
      ephemeral: true,
    });
    await bot.send(click);
    const told = await bot.slack.waitForResponse(click.responseUrlId ?? '');
    expect(told.text).toContain('*sam-desktop* is yours now');

    const home = await homeOf(SAM);
    expect(sections(home).yours).toContain('psorb003');
    expect(sections(home).team).not.toContain('psorb003');
    const row = rowOf(home, 'psorb003');
    expect(row.actions).not.toContain(ActionId.machineClaim);
    expect(row.actions).toContain(ActionId.machineStop);

    // Maya now sees it as Sam's.
    const mayaList = await command(bot, 'maya', 'list');
    expect(rowOf(mayaList.blocks, 'psorb003').summary).toContain(`owned by <@${SAM}>`);
  });

  it('draws the list again after This is mine on one of its rows, the row now his', async () => {
    const list = await command(bot, 'sam', 'list');
    const blockId = (list.blocks as Block[]).find(
      (block) => machineIdFromBlockId(block.block_id ?? '') === 'psorb005',
    )?.block_id;
    if (blockId === undefined) throw new Error(`no row of psorb005 in ${textOf(list.blocks)}`);
    const click = bot.requests.blockAction({
      actionId: ActionId.machineClaim,
      value: rowOf(list.blocks, 'psorb005').claimValue,
      blockId,
      userId: SAM,
      ephemeral: true,
    });
    await bot.send(click);
    const redrawn = await eventually(() =>
      bot.slack.responses(click.responseUrlId ?? '').find((post) => post.replace_original === true),
    );
    const row = rowOf(redrawn.blocks, 'psorb005');
    expect(row.actions).not.toContain(ActionId.machineClaim);
    expect(row.summary).not.toContain('no owner yet');
  });
});
