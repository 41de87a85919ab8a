import { describe, expect, it } from 'vitest';
import { machineIdFromBlockId } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const bot = useTestBot({
  linked: ['ada', 'maya'],
  prepare: async (bot) => {
    bot.emulator.state.addMachines(25, { owner: 'u1ada', namePrefix: 'bulk' });
  },
});

/** The value of the Prev or Next button of a list message. */
function pageButtonValue(blocks: unknown, label: 'Prev' | 'Next'): string {
  const buttons = (
    blocks as { type: string; elements?: { action_id: string; text: { text: string }; value: string }[] }[]
  )
    .flatMap((block) => block.elements ?? [])
    .filter((element) => element.action_id === ActionId.listPage);
  const found = buttons.find((button) => button.text.text.includes(label));
  if (!found) throw new Error(`no ${label} button in ${textOf(blocks)}`);
  return found.value;
}

/** Clicks a page button on an ephemeral list as `user`; answers the ack and the reply to the click. */
async function clickPage(user: 'ada' | 'maya' | 'sam', value: string) {
  const request = bot.requests.blockAction({
    actionId: ActionId.listPage,
    value,
    userId: USERS[user].slackId,
    ephemeral: true,
  });
  const started = Date.now();
  const ack = await bot.send(request);
  const ackMs = Date.now() - started;
  const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
  return { ack, ackMs, reply };
}

const adaMachineCount = () =>
  bot.emulator.state.machines().filter((machine) => machine.userId === 'u1ada').length;

describe('/ps help', () => {
  it('lists the commands by what they are for, only to the asker', async () => {
    const reply = await command(bot, 'sam', 'help');
    expect(reply.response_type).toBe('ephemeral');
    const text = textOf(reply.blocks);
    for (const usage of ['*Machines*', '/ps login', '/ps list', '/ps drive create', '/ps remind off']) {
      expect(text).toContain(usage);
    }
  });

  it("shows one command's usage and summary", async () => {
    const reply = await command(bot, 'sam', 'help availability');
    const text = textOf(reply.blocks);
    expect(text).toContain('/ps availability [region] [machineType]');
    expect(text).toContain(
      'dedicated GPU types on the legacy API, every type your templates offer on API v1',
    );
    expect(text).not.toContain('/ps login');
  });

  it('answers an unknown topic with a usage error at once', async () => {
    const response = await bot.send(
      bot.requests.slashCommand({ text: 'help teleport', userId: USERS.sam.slackId }),
    );
    expect(response.body).toMatchObject({
      response_type: 'ephemeral',
      text: expect.stringContaining('teleport'),
    });
  });
});

describe('/ps list', () => {
  it('answers an unknown filter with the closest one and the few people use, not every field', async () => {
    const typo = await bot.send(
      bot.requests.slashCommand({ text: 'list stat=ready', userId: USERS.sam.slackId }),
    );
    const typoText = JSON.stringify(typo.body);
    expect(typoText).toContain('Unknown filter \\"stat\\" for list. Did you mean \\"state\\"?');
    expect(typoText).toContain('Use state, region, machineType, name, owner, or any of 22 more fields.');
    expect(typoText).not.toContain('autoSnapshotSaveCount');
    const unknown = await bot.send(
      bot.requests.slashCommand({ text: 'list colour=red', userId: USERS.sam.slackId }),
    );
    expect(JSON.stringify(unknown.body)).not.toContain('Did you mean');
    expect(JSON.stringify(unknown.body)).toContain('Use state, region, machineType, name');
  });

  it('answers a mistyped state with the closest one, before asking Paperspace', async () => {
    const mark = bot.emulator.state.requests().length;
    const typo = await bot.send(
      bot.requests.slashCommand({ text: 'list state=of', userId: USERS.sam.slackId }),
    );
    const text = JSON.stringify(typo.body);
    expect(text).toContain('Unknown state \\"of\\". Did you mean state=off?');
    expect(text).toContain('A machine is off, starting');
    expect(bot.emulator.state.requests().length).toBe(mark);
    // A state in another case is the state.
    const typed = await command(bot, 'ada', 'list state=Ready');
    expect(textOf(typed)).toContain('ada-workstation');
    expect(textOf(typed)).not.toContain('ada-cpu-box');
  });

  it('shows page 1 of every machine and pages with Next and Prev, replacing the list in place', async () => {
    const total = adaMachineCount();
    expect(total).toBeGreaterThan(20);
    const first = await command(bot, 'ada', 'list');
    expect(first.response_type).toBe('ephemeral');
    expect(textOf(first.blocks)).toContain(`${total} machines · page 1 of 3`);

    const next = await clickPage('ada', pageButtonValue(first.blocks, 'Next'));
    expect(next.ack.status).toBe(200);
    expect(next.ackMs).toBeLessThan(1000);
    expect(next.reply.replace_original).toBe(true);
    expect(textOf(next.reply.blocks)).toContain(`${total} machines · page 2 of 3`);

    const previous = await clickPage('ada', pageButtonValue(next.reply.blocks, 'Prev'));
    expect(previous.reply.replace_original).toBe(true);
    expect(textOf(previous.reply.blocks)).toContain(`${total} machines · page 1 of 3`);
  });

  it('filters by machine fields and keeps the filters on the next page', async () => {
    const off = bot.emulator.state.machines().filter((m) => m.userId === 'u1ada' && m.state === 'off');
    const first = await command(bot, 'ada', 'list state=off');
    const text = textOf(first.blocks);
    expect(text).toContain(`${off.length} machines · page 1 of 3`);
    expect(text).toContain('state=off');
    expect(text).not.toContain('ada-workstation');

    const next = await clickPage('ada', pageButtonValue(first.blocks, 'Next'));
    expect(textOf(next.reply.blocks)).toContain('state=off');
    expect(textOf(next.reply.blocks)).not.toContain('ada-workstation');
  });

  it('turns typed numbers into number filters and names a filter whose value is not one', async () => {
    const [bulk] = bot.emulator.state.machines().filter((m) => m.name === 'bulk-1');
    const matching = await command(bot, 'ada', `list cpus=${bulk?.cpus} name=bulk-1`);
    expect(textOf(matching.blocks)).toContain('bulk-1');

    const wrong = await command(bot, 'ada', 'list cpus=many');
    expect(textOf(wrong.blocks)).toContain('cpus must be a number');
  });

  it('pages with the key of whoever clicks, not of whoever asked', async () => {
    const adaList = await command(bot, 'ada', 'list');
    const next = await clickPage('maya', pageButtonValue(adaList.blocks, 'Next'));
    // Maya's key sees the team's machines, so her "page 2" is of her list, not Ada's.
    expect(textOf(next.reply.blocks)).not.toContain('bulk-');
    expect(textOf(next.reply.blocks)).toContain('maya-trainer');
  });

  it('answers a tampered page value with a sentence and leaves the list alone', async () => {
    const garbage = await clickPage('ada', '{"kind":"machines","filters":{},"page":"two"');
    expect(garbage.ack.status).toBe(200);
    expect(garbage.reply.replace_original).toBe(false);
    expect(textOf(garbage.reply.blocks)).toContain('damaged or out of date');

    const badFilter = await clickPage(
      'ada',
      JSON.stringify({ kind: 'machines', filters: { state: 'melting' }, page: 2 }),
    );
    expect(badFilter.reply.replace_original).toBe(false);
    expect(textOf(badFilter.reply.blocks)).toContain('state must be one of');

    const unknownFilter = await clickPage(
      'ada',
      JSON.stringify({ kind: 'users', filters: { password: 'x' }, page: 1 }),
    );
    expect(textOf(unknownFilter.reply.blocks)).toContain('password is not a parameter');
  });

  it('moves a page number past the end to the last page', async () => {
    const far = await clickPage('ada', JSON.stringify({ kind: 'machines', filters: {}, page: 999 }));
    expect(textOf(far.reply.blocks)).toContain('page 3 of 3');
  });
});

describe('catalogue lists', () => {
  it('lists templates matching a filter, stock and the team’s own', async () => {
    const reply = await command(bot, 'maya', 'templates os="Ubuntu 22.04 (ML in a Box)"');
    const text = textOf(reply.blocks);
    expect(text).toContain('Orbital ML base image');
    expect(text).not.toContain('Windows 10');
  });

  // v1 sells per template (availableMachineTypes); the contract has one fixed list, so shows none.
  it('shows with each template the machine types it offers where Paperspace says so (v1)', async () => {
    const text = textOf((await command(bot, 'maya', 'templates os="Windows 10 (Server 2016)"')).blocks);
    if (process.env.TEST_PAPERSPACE_DIALECT === 'v1') {
      expect(text).toContain('machine types: Air, Standard, Pro, Advanced, GPU+, P4000, P5000, P6000, V100');
    } else {
      expect(text).not.toContain('machine types:');
    }
    const ubuntu = textOf((await command(bot, 'maya', 'templates os="Ubuntu 20.04"')).blocks);
    if (process.env.TEST_PAPERSPACE_DIALECT === 'v1') expect(ubuntu).toContain('A100');
  });

  it('lists every template for a region: templates are not tied to one', async () => {
    const all = textOf((await command(bot, 'maya', 'templates')).blocks);
    const inCa1 = textOf((await command(bot, 'maya', 'templates region=CA1')).blocks);
    expect(inCa1).toContain('Orbital ML base image');
    expect(inCa1.match(/templates?\b/g)?.length).toBe(all.match(/templates?\b/g)?.length);
    const typo = await command(bot, 'maya', 'templates region=Mars');
    expect(typo.text).toMatch(/region/);
  });

  it('filters machines by machine type, which Paperspace cannot do itself', async () => {
    const text = textOf((await command(bot, 'ada', 'list machineType=p5000')).blocks);
    expect(text).toContain('ada-render');
    expect(text).not.toContain('ada-workstation');
    expect(text).not.toContain('ada-cpu-box');
    const wrong = await command(bot, 'ada', 'list machineType=Z9');
    expect(wrong.text).toContain('machineType');
  });

  it("lists the team's users, filtered by a field", async () => {
    const all = await command(bot, 'maya', 'users');
    expect(textOf(all.blocks)).toContain('2 users');
    // The team's id on every row of its own users says nothing a person can use.
    expect(textOf(all.blocks)).not.toMatch(/\bteam\b/i);
    const one = await command(bot, 'maya', 'users firstname=Sam');
    expect(textOf(one.blocks)).toContain('sam.rivera@orbital.example');
    expect(textOf(one.blocks)).not.toContain('maya.chen');
  });

  it('lists networks filtered by region code', async () => {
    const reply = await command(bot, 'maya', 'networks region=AMS1');
    const text = textOf(reply.blocks);
    expect(text).toContain('Orbital Europe');
    expect(text).not.toContain('Orbital West');
    expect(text).toContain('region=Europe (AMS1)');
  });

  it("lists the account's startup scripts", async () => {
    const reply = await command(bot, 'maya', 'scripts');
    const text = textOf(reply.blocks);
    expect(text).toContain('install-cuda-tools');
    expect(text).not.toContain('mount-projects');
  });

  it('pages a catalogue list by its kind', async () => {
    const page = await clickPage(
      'maya',
      JSON.stringify({ kind: 'networks', filters: { region: 'Europe (AMS1)' }, page: 1 }),
    );
    expect(page.reply.replace_original).toBe(true);
    expect(textOf(page.reply.blocks)).toContain('Orbital Europe');
  });
});

const availabilityPath = () =>
  bot.dialect === 'v1' ? '/v1/machine-availability' : '/machines/getAvailability';

describe('/ps availability', () => {
  it('checks every region and every type the API reports on when none is given', async () => {
    bot.emulator.state.setAvailability('Europe (AMS1)', 'V100', true);
    const reply = await command(bot, 'ada', 'availability');
    const text = textOf(reply.blocks);
    if (bot.dialect === 'contract') expect(text).toContain('GPU availability');
    for (const region of ['West Coast (CA1)', 'East Coast (NY2)', 'Europe (AMS1)'])
      expect(text).toContain(region);
    const europe = cellsOf(reply.blocks, 'Europe (AMS1)');
    expect(europe.slice(0, 5)).toEqual(['❌ GPU+', '✅ P4000', '✅ P5000', '❌ P6000', '✅ V100']);
    const asked = bot.emulator.state.requests().filter((request) => request.path === availabilityPath());
    if (bot.dialect === 'v1') {
      // v1's catalog is what the templates offer: CPU, GRID and v1's own types are checked too.
      expect(europe).toEqual(expect.arrayContaining(['✅ C4', '✅ Air', '✅ A100']));
      expect(text).toContain('Machine availability');
      expect(asked.length).toBeGreaterThanOrEqual(3 * 24);
    } else {
      expect(europe).toHaveLength(5);
      expect(asked.length).toBeGreaterThanOrEqual(15);
    }
  });

  it('checks only what is left open', async () => {
    const before = bot.emulator.state.requests().length;
    const reply = await command(bot, 'ada', 'availability P5000 AMS1');
    const text = textOf(reply.blocks);
    expect(cellsOf(reply.blocks, 'Europe (AMS1)')).toEqual(['✅ P5000']);
    expect(text).not.toContain('West Coast');
    const asked = bot.emulator.state.requests().slice(before);
    expect(asked.filter((request) => request.path === availabilityPath())).toHaveLength(1);
  });

  it("asks about any type the account's templates offer on v1, and refuses it on the contract", async () => {
    bot.emulator.state.setAvailability('Europe (AMS1)', 'A100', false);
    const before = bot.emulator.state.requests().length;
    const reply = await command(bot, 'ada', 'availability a100 ams1');
    const text = textOf(reply.blocks);
    if (bot.dialect === 'v1') {
      expect(cellsOf(reply.blocks, 'Europe (AMS1)')).toEqual(['❌ A100']);
      // v1's own parameter names and region id, not the contract's region name.
      const asked = bot.emulator.state.requests().slice(before);
      const query = asked.find((request) => request.path === availabilityPath())?.query ?? '';
      expect(new URLSearchParams(query).get('region')).toBe('ams1');
      expect(new URLSearchParams(query).get('machineType')).toBe('A100');
    } else {
      expect(text).toMatch(/Unknown region or machine type \\"a100\\"/);
      expect(text).toContain('P4000');
      expect(text).not.toContain('GPU availability');
    }
  });

  it('checks a CPU type where v1 reports on it; the contract says it has no report', async () => {
    const reply = await command(bot, 'ada', 'availability c4 ca1');
    const text = textOf(reply.blocks);
    if (bot.dialect === 'v1') expect(cellsOf(reply.blocks, 'West Coast (CA1)')).toEqual(['✅ C4']);
    else expect(text).toContain('Machine type C4 has no availability report: only dedicated GPU types do');
  });

  it('refuses a type no template offers by name, listing the regions and types that exist', async () => {
    const before = bot.emulator.state.requests().length;
    const reply = await command(bot, 'ada', 'availability mars');
    const text = textOf(reply.blocks);
    expect(text).toMatch(/Unknown region or machine type \\"mars\\"/);
    expect(text).toContain('CA1, NY2, AMS1');
    expect(text).toContain('P5000');
    const asked = bot.emulator.state.requests().slice(before);
    expect(asked.filter((request) => request.path === availabilityPath())).toHaveLength(0);
  });

  it('shows failed checks as failed cells, not a failed message', async () => {
    bot.emulator.state.failNextRequests({ count: 2, status: 400, path: availabilityPath() });
    const reply = await command(bot, 'ada', 'availability CA1');
    const cells = cellsOf(reply.blocks, 'West Coast (CA1)');
    // Every type is stocked in CA1: the contract's five dedicated GPU types, v1's whole catalog.
    expect(cells).toHaveLength(bot.dialect === 'v1' ? 24 : 5);
    expect(cells.filter((cell) => cell.startsWith('⚠️'))).toHaveLength(2);
    expect(cells.filter((cell) => cell.startsWith('✅'))).toHaveLength(cells.length - 2);
  });

  it('says once that the key is refused, instead of a grid of failures', async () => {
    await bot.vault.link(
      { teamId: bot.slack.teamId, userId: USERS.sam.slackId },
      {
        apiKey: 'revoked-key-of-sam-0',
        account: { userId: 'u1sam', email: 'sam.rivera@orbital.example', teamId: 'te1orbit' },
      },
    );
    const reply = await command(bot, 'sam', 'availability');
    const text = textOf(reply.blocks);
    expect(text).toContain('rejected the API key');
    expect(text).not.toContain('GPU availability');
  });
});

/** The cells of one region's sections (the first and any "(continued)") in the availability grid. */
function cellsOf(blocks: unknown, region: string): string[] {
  const sections = blocks as { type: string; text?: { text: string }; fields?: { text: string }[] }[];
  return sections
    .filter((block) => block.type === 'section' && block.text?.text.startsWith(`*${region}*`))
    .flatMap((section) => (section.fields ?? []).map((field) => field.text));
}

describe('power buttons in a team list', () => {
  /** The action ids of a machine's card in a list. */
  const actionsOf = (blocks: unknown, machineId: string) =>
    (blocks as { block_id?: string; elements?: { action_id: string }[] }[])
      .find((block) => machineIdFromBlockId(block.block_id ?? '') === machineId)
      ?.elements?.map((element) => element.action_id);

  it("offers Start, Stop and Restart only on the viewer's own machines; a teammate's offers Ask the owner", async () => {
    const reply = await command(bot, 'maya', 'list');
    // maya-trainer is Maya's; sam-desktop and sam-dev are Sam's.
    expect(actionsOf(reply.blocks, 'psorb001')).toContain(ActionId.machineStop);
    if (bot.dialect === 'v1') {
      // API v1 machines say nothing of their owner: the buttons stay, and Paperspace decides on a click.
      expect(actionsOf(reply.blocks, 'psorb003')).toContain(ActionId.machineStop);
      return;
    }
    for (const teammates of ['psorb003', 'psorb004']) {
      const actions = actionsOf(reply.blocks, teammates);
      expect(actions).toContain(ActionId.requestPower);
      expect(actions).not.toContain(ActionId.machineStart);
      expect(actions).not.toContain(ActionId.machineStop);
      expect(actions).not.toContain(ActionId.machineRestart);
    }
    expect(textOf(reply.blocks)).toContain('\\"verb\\":\\"start');
  });

  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "offers Settings, Access and Destroy on a teammate's machine to an administrator, never to a member",
    async () => {
      // Paperspace lets a machine's owner or an administrator of its team change or destroy it.
      await bot.link('sam');
      const samSees = await command(bot, 'sam', 'list');
      expect(actionsOf(samSees.blocks, 'psorb003')).toContain(ActionId.machineOverflow);
      expect(actionsOf(samSees.blocks, 'psorb001')).not.toContain(ActionId.machineOverflow);
      expect(actionsOf(samSees.blocks, 'psorb001')).toContain(ActionId.machineShare);

      // Maya's access token lets Paperspace show she administers the team (spend's rule).
      await bot.link('maya', { withAccessToken: true });
      const mayaSees = await command(bot, 'maya', 'list');
      expect(actionsOf(mayaSees.blocks, 'psorb003')).toContain(ActionId.machineOverflow);
      expect(actionsOf(mayaSees.blocks, 'psorb003')).toContain(ActionId.requestPower);
    },
  );

  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    'Ask the owner on a list card asks privately and leaves the list in place',
    async () => {
      const list = await command(bot, 'maya', 'list');
      const askValue = (
        list.blocks as { block_id?: string; elements?: { action_id: string; value?: string }[] }[]
      )
        .find((block) => machineIdFromBlockId(block.block_id ?? '') === 'psorb004')
        ?.elements?.find((element) => element.action_id === ActionId.requestPower)?.value;
      expect(askValue).toBeDefined();
      const request = bot.requests.blockAction({
        actionId: ActionId.requestPower,
        value: askValue,
        blockId: 'machine_actions:psorb004',
        userId: USERS.maya.slackId,
        ephemeral: true,
      });
      await bot.send(request);
      const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
      expect(reply.replace_original).not.toBe(true);
      // Sent to Sam when an earlier test of this file linked him, otherwise why it cannot be asked.
      expect(reply.text).toMatch(/Request sent to <@U0SAM>|The owner of sam-dev has not linked/);
      expect(bot.slack.responses(request.responseUrlId ?? '').some((post) => post.replace_original)).toBe(
        false,
      );
    },
  );
});

describe('a power button on a row of /ps list', () => {
  type Row = { block_id?: string; elements?: { action_id: string; value?: string }[] };
  /** The machine ids of a list's rows, in order. */
  const rowIds = (blocks: unknown) =>
    (blocks as Row[]).flatMap((block) => {
      const id = machineIdFromBlockId(block.block_id ?? '');
      return id === undefined ? [] : [id];
    });

  it('changes only its own row: the rest of the list, its count and its pages stay', async () => {
    const total = adaMachineCount();
    const list = await command(bot, 'ada', 'list');
    const row = (list.blocks as Row[]).find((block) =>
      block.elements?.some((element) => element.action_id === ActionId.machineStart),
    );
    const start = row?.elements?.find((element) => element.action_id === ActionId.machineStart);
    const machineId = machineIdFromBlockId(row?.block_id ?? '');
    if (row?.block_id === undefined || start?.value === undefined || machineId === undefined) {
      throw new Error(`no off machine on page 1: ${textOf(list.blocks)}`);
    }
    const request = bot.requests.blockAction({
      actionId: ActionId.machineStart,
      value: start.value,
      blockId: row.block_id,
      userId: USERS.ada.slackId,
      channelId: 'C0OPS',
      ephemeral: true,
    });
    await bot.send(request);

    // The live card goes to the conversation, as from any ephemeral card.
    const card = await bot.slack.waitFor('chat.postMessage');
    expect(textOf(card.args.blocks)).toContain(`Starting… requested by <@${USERS.ada.slackId}>`);
    const redrawn = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(redrawn.replace_original).toBe(true);
    // Every row is still there, in the same order, under the same count and pager.
    expect(rowIds(redrawn.blocks)).toEqual(rowIds(list.blocks));
    expect(textOf(redrawn.blocks)).toContain(`${total} machines · page 1 of 3`);
    expect(pageButtonValue(redrawn.blocks, 'Next')).toBe(pageButtonValue(list.blocks, 'Next'));
    // The clicked row shows the machine on its way up and no longer offers Start.
    const blocks = redrawn.blocks as (Row & { text?: { text: string } })[];
    const at = blocks.findIndex((block) => block.block_id === row.block_id);
    expect(blocks[at]?.elements?.map((element) => element.action_id)).not.toContain(ActionId.machineStart);
    expect(blocks[at - 1]?.text?.text).toMatch(/· (Starting|Provisioning|Ready|Running)/);
    // Still the same machine's row, named as the list named it.
    const listed = list.blocks as (Row & { text?: { text: string } })[];
    const before = listed.findIndex((block) => block.block_id === row.block_id);
    const name = /\*([^*]+)\*/.exec(listed[before - 1]?.text?.text ?? '')?.[1];
    expect(name).toBeDefined();
    expect(blocks[at - 1]?.text?.text).toContain(`*${name}*`);
  });
});

// Last in the file: the machine it adds would change the other tests' counts.
describe('machine types beyond the fixed list', () => {
  it("filters by a type only v1 sells where v1's templates decide the types; the contract names the typo", async () => {
    bot.emulator.state.addMachines(1, {
      owner: 'u1ada',
      machineType: 'A100',
      templateId: 't04azgph',
      namePrefix: 'ampere',
    });
    const reply = await command(bot, 'ada', 'list machineType=a100');
    if (process.env.TEST_PAPERSPACE_DIALECT === 'v1') {
      const text = textOf(reply.blocks);
      expect(text).toContain('ampere-1');
      expect(text).not.toContain('ada-render');
    } else {
      expect(reply.text).toContain('machineType must be one of');
    }
  });
});
