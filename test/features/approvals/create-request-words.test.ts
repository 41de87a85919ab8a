import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { eventually, textOf } from '../machines/machine-kit.js';

/** The contract requires a billing type; v1's create has no such field, so its requests name none. */
const BILLING = process.env.TEST_PAPERSPACE_DIALECT === 'v1' ? '' : ' billingType=hourly';

// Sam is a member of Maya's Paperspace team: only Maya, an administrator, may create machines.
const clock = createFakeClock();
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const CHANNEL = 'C0OPS';

const bot = useTestBot({ emulator: { now: clock.now }, now: clock.now, linked: ['maya', 'sam'] });

type Block = { elements?: { action_id?: string; value?: string }[] };

function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = block.elements?.find((element) => element.action_id === actionId);
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

/**
 * Sam types a create as a member would, naming no Paperspace id, and clicks the offer's button in the
 * channel. Answers the click's private answers and the request Maya received.
 */
async function samAsks(name: string, extra = '', machineType = 'C4') {
  const command = bot.requests.slashCommand({
    text: `create machineName=${name} region=CA1 machineType=${machineType} size=50${BILLING} templateId=t04azgph${extra}`,
    userId: SAM,
    channelId: CHANNEL,
  });
  await bot.send(command);
  const offer = await bot.slack.waitForResponse(command.responseUrlId ?? '');
  expect(textOf(offer.blocks)).toContain('Send request to administrators');
  const click = bot.requests.blockAction({
    actionId: ActionId.requestCreate,
    value: buttonValue(offer.blocks, ActionId.requestCreate),
    userId: SAM,
    channelId: CHANNEL,
  });
  await bot.send(click);
  const toMaya = await bot.slack.waitFor(
    (call) =>
      call.method === 'chat.postMessage' &&
      call.args.channel === MAYA &&
      textOf(call.args.blocks).includes(name),
  );
  return { toMaya, answers: () => bot.slack.responses(click.responseUrlId ?? '') };
}

describe("a member's create request", () => {
  it("shows the team's rate for a type the team has a machine of", async () => {
    // sam-desktop, Sam's own P4000 in the team, carries the team's rate.
    const { toMaya } = await samAsks('sam-p4000', '', 'P4000');
    expect(textOf(toMaya.args.blocks)).toContain(
      'Estimated rate: *$0.51 / h* (storage billed monthly on top)',
    );
  });

  it('shows the published list price, said to be one and dated, for a type nobody in the team has', async () => {
    // P5000 is only in Ada's own account, which Sam's key cannot see.
    const { toMaya } = await samAsks('sam-p5000', '', 'P5000');
    const text = textOf(toMaya.args.blocks);
    expect(text).toContain('Estimated rate: *$0.78 / h list price (May 2024)*');
    expect(text).toContain('no machine of this type in the team');
    expect(text).not.toContain('unknown');
  });

  it('replaces "Sending your request…" with where it went, in the offer the member clicked', async () => {
    const { answers } = await samAsks('sam-sent');
    const last = await eventually(() => {
      const all = answers();
      const final = all.at(-1);
      return final !== undefined && textOf(final).includes('Request sent') ? final : undefined;
    });
    expect(last.replace_original).toBe(true);
    expect(last.text).toContain(`Request sent to <@${MAYA}>`);
    expect(answers().map((answer) => answer.text)).toEqual(['📨 Sending your request…', last.text]);
  });

  it('shows the administrator names, not API words: template label, GPU, region, the member, no defaults', async () => {
    const { toMaya } = await samAsks('sam-named');
    const shown = textOf(toMaya.args.blocks);
    expect(shown).toContain('Template: *Ubuntu 20.04 Server*');
    expect(shown).toContain('Machine type: *C4 · CPU only, no GPU*');
    expect(shown).toContain('Region: West Coast (CA1)');
    expect(shown).toContain('Disk: 50 GB');
    expect(shown).toContain(`For: <@${SAM}>`);
    for (const apiWord of ['templateId', 'teamId', 'userId', 't04azgph', 'billingType', 'false', 'u1sam']) {
      expect(shown).not.toContain(apiWord);
    }
  });

  it('lists a flag only when the member changed it from its default', async () => {
    const { toMaya } = await samAsks('sam-off', ' startOnCreate=false');
    expect(textOf(toMaya.args.blocks)).toContain('Start on create: no, it is created off');
    expect(textOf(toMaya.args.blocks)).not.toContain('false');
  });
});
