// A member's create as it goes on v1, where only administrators create: the member types it, sends the
// request from Paperspace's refusal, and the administrator approves it from their DM with their key.
import { ActionId } from '../../../src/slack/ids.js';
import type { TestBot } from '../../support/test-bot.js';
import { eventually, textOf } from '../machines/machine-kit.js';

type Element = { action_id?: string; value?: string };
type Block = { elements?: Element[]; accessory?: Element };

/** The value of the first button with `actionId`, among the blocks' elements and accessories. */
function buttonValue(blocks: unknown, actionId: string): string {
  for (const block of (blocks ?? []) as Block[]) {
    const found = [...(block.elements ?? []), ...(block.accessory ? [block.accessory] : [])].find(
      (element) => element.action_id === actionId,
    );
    if (found?.value !== undefined) return found.value;
  }
  throw new Error(`no ${actionId} button in ${textOf(blocks)}`);
}

/** The machine `requester` asked for with `/ps create …` and `approver` approved: as the emulator has it. */
export async function createdOnApproval(
  bot: TestBot,
  {
    requester,
    approver,
    channelId,
    create,
  }: { requester: string; approver: string; channelId: string; create: string },
) {
  const typed = bot.requests.slashCommand({ text: `create ${create}`, userId: requester, channelId });
  await bot.send(typed);
  const offer = await bot.slack.waitForResponse(typed.responseUrlId ?? '');
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestCreate,
      value: buttonValue(offer.blocks, ActionId.requestCreate),
      userId: requester,
      channelId,
    }),
  );
  const name = /machineName=(\S+)/.exec(create)?.[1] ?? '';
  const toApprover = await bot.slack.waitFor(
    (call) =>
      call.method === 'chat.postMessage' &&
      call.args.channel === approver &&
      textOf(call.args.blocks).includes(name),
  );
  await bot.send(
    bot.requests.blockAction({
      actionId: ActionId.requestApprove,
      value: buttonValue(toApprover.args.blocks, ActionId.requestApprove),
      userId: approver,
      channelId: `D${approver}`,
      message: { ts: '1700000000.000100' },
    }),
  );
  return eventually(() => bot.emulator.state.machineByName(name));
}
