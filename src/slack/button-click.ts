// A button whose work is small and self-contained (a reminder's row, Share on a card): acked at once,
// then handled with the clicker's interaction context and the message the button sits in; any failure
// is told to the clicker alone, in one sentence.
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';
import { actionInteraction, type Interaction } from './interaction.js';
import type { ListenerDeps } from './listener-deps.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export interface ButtonClick extends Interaction {
  /** The button's value, as the message that carries it set it. */
  value: string;
  /** The message of the button; undefined for ephemeral messages and App Home. */
  message: { ts: string; text: string; blocks: KnownBlock[] } | undefined;
  logger: Logger;
}

/**
 * Redraws the message a click came from (its row answered, its buttons replaced by what was done).
 * Nothing to redraw for an ephemeral message or App Home. A message that cannot be edited is logged,
 * not fatal: what the click asked for has already happened, and saying otherwise would be untrue.
 */
export async function redrawClickedMessage(
  slack: WebClient,
  click: Pick<ButtonClick, 'message' | 'channelId' | 'logger'>,
  redraw: { blocks: KnownBlock[]; text?: string },
  what: string,
): Promise<void> {
  if (click.message === undefined || click.channelId === undefined) return;
  try {
    await slack.chat.update({
      channel: click.channelId,
      ts: click.message.ts,
      blocks: redraw.blocks,
      text: redraw.text ?? click.message.text,
    });
  } catch (error) {
    click.logger.warn({ error: describeError(error) }, `could not update ${what}`);
  }
}

function readButtonClick(args: ButtonArgs, deps: ListenerDeps): ButtonClick {
  const { body, action } = args;
  const interaction = actionInteraction(deps, args);
  const message = body.message
    ? {
        ts: body.message.ts,
        text: body.message.text ?? '',
        blocks: Array.isArray(body.message.blocks) ? (body.message.blocks as KnownBlock[]) : [],
      }
    : undefined;
  return { ...interaction, value: action.value ?? '', message, logger: interaction.deps.logger };
}

export function buttonHandler(
  deps: ListenerDeps,
  handle: (click: ButtonClick, args: ButtonArgs) => Promise<void>,
): (args: ButtonArgs) => Promise<void> {
  return async (args) => {
    await args.ack();
    const click = readButtonClick(args, deps);
    try {
      await handle(click, args);
    } catch (error) {
      await click.replyFailure(error);
    }
  };
}
