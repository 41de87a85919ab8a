// The one way a click is handled: acked at once (Slack allows 3 s), the clicker's interaction context
// built once, with the message the click came from, then the handler runs; any failure is told to the
// clicker alone, in one sentence. Features add what they read from a click (a machine, a card's place)
// by wrapping `buttonHandler`, not by acking again. A click that changes something may have its receipt
// stored before the ack and ended once it answered (request-receipt.ts), as a typed command does.
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import { actionInteraction, type Interaction } from './interaction.js';
import type { PlatformDeps } from './platform-deps.js';
import { type RequestReceipt, storedBeforeAck } from './request-receipt.js';

/** Bolt's arguments for a click on a button (the default) or on another interactive element. */
export type ButtonArgs<A extends BlockAction = BlockAction<ButtonAction>> = SlackActionMiddlewareArgs<A> &
  AllMiddlewareArgs;

interface ClickedMessage {
  ts: string;
  text: string;
  blocks: KnownBlock[];
}

export interface ButtonClick extends Interaction {
  /** The button's value, as the message that carries it set it; '' for an element without one (a menu). */
  value: string;
  /** The message of the button; undefined for ephemeral messages and App Home. */
  message: ClickedMessage | undefined;
  /** Opens a modal within 3 s of the click. */
  triggerId: string;
  logger: Logger;
  /** The click's receipt, stored before the ack, when its handler asked for one. */
  receipt?: RequestReceipt;
}

export interface ClickRedraw {
  /** What the click did, in one line: told to the clicker alone when there is no message to redraw. */
  done: string;
  /** The message's new blocks (and text); undefined when the message no longer has what was clicked. */
  redraw: (message: ClickedMessage) => { blocks: KnownBlock[]; text?: string } | undefined;
  /** Names the message in the log line when it cannot be edited ("the row of a reminder"). */
  what: string;
}

/**
 * Redraws the message a click came from (its row answered, its buttons replaced by what was done). An
 * ephemeral message or App Home has nothing to redraw, so the clicker is told `done` privately: they
 * still learn what their click did. A message that cannot be edited is logged, not fatal: what the
 * click asked for has already happened, and saying otherwise would be untrue.
 */
export async function redrawClickedMessage(
  slack: WebClient,
  click: Pick<ButtonClick, 'message' | 'channelId' | 'logger' | 'replyPrivately'>,
  { done, redraw, what }: ClickRedraw,
): Promise<void> {
  if (click.message === undefined || click.channelId === undefined) {
    await click.replyPrivately({ blocks: [], text: done });
    return;
  }
  const redrawn = redraw(click.message);
  if (redrawn === undefined) return;
  try {
    await slack.chat.update({
      channel: click.channelId,
      ts: click.message.ts,
      blocks: redrawn.blocks,
      text: redrawn.text ?? click.message.text,
    });
  } catch (error) {
    click.logger.warn({ error: describeError(error) }, `could not update ${what}`);
  }
}

function readButtonClick<A extends BlockAction>(args: ButtonArgs<A>, deps: PlatformDeps): ButtonClick {
  const { body, action } = args;
  const interaction = actionInteraction(deps, args);
  const message = body.message
    ? {
        ts: body.message.ts,
        text: body.message.text ?? '',
        blocks: Array.isArray(body.message.blocks) ? (body.message.blocks as KnownBlock[]) : [],
      }
    : undefined;
  const value = 'value' in action && typeof action.value === 'string' ? action.value : '';
  return { ...interaction, value, message, triggerId: body.trigger_id, logger: interaction.deps.logger };
}

/** The receipt a click stores before its ack; undefined when it needs none (or cannot be read). */
export type ClickReceipt<A extends BlockAction> = (
  click: ButtonClick,
  args: ButtonArgs<A>,
) => RequestReceipt | undefined;

export function buttonHandler<A extends BlockAction = BlockAction<ButtonAction>>(
  deps: PlatformDeps,
  handle: (click: ButtonClick, args: ButtonArgs<A>) => Promise<void>,
  receive?: ClickReceipt<A>,
): (args: ButtonArgs<A>) => Promise<void> {
  return async (args) => {
    const read = readButtonClick(args, deps);
    const receipt = receive?.(read, args);
    if (receipt !== undefined) await storedBeforeAck(receipt, args.context);
    await args.ack();
    const click = receipt === undefined ? read : { ...read, receipt };
    try {
      await handle(click, args);
    } catch (error) {
      await click.replyFailure(error);
    } finally {
      await receipt?.end();
    }
  };
}
