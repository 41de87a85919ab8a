// What the scheduler's buttons share once acked: who clicked (their key acts, never the poster's),
// the machine the button names, where it sits, and how to answer only the clicker.
import type { AllMiddlewareArgs, BlockAction, ButtonAction, SlackActionMiddlewareArgs } from '@slack/bolt';
import type { KnownBlock } from '@slack/types';
import type { Logger } from 'pino';
import { messageForUser } from '../errors/user-message.js';
import { decodeMachineRef, type MachineRef } from '../features/machines/blocks/machine-ref.js';
import type { PaperspaceClient } from '../paperspace/client.js';
import type { SlackUser } from '../store/slack-user.js';
import { errorMessage, loginPrompt } from './block-kit/messages.js';
import type { SlackMessage } from './block-kit/text.js';
import type { ListenerDeps } from './listener-deps.js';

export type ButtonArgs = SlackActionMiddlewareArgs<BlockAction<ButtonAction>> & AllMiddlewareArgs;

export interface Click {
  user: SlackUser;
  machine: MachineRef;
  /** The conversation of the button; undefined in App Home. */
  channelId: string | undefined;
  /** The message of the button; undefined for ephemeral messages and App Home. */
  message: { ts: string; text: string; blocks: KnownBlock[] } | undefined;
  logger: Logger;
  /** Answers only the clicker: ephemeral where the button sits, or their DM from App Home. */
  replyPrivately(message: SlackMessage): Promise<void>;
  /** The clicker's own Paperspace client; shows them the login prompt when they linked no key. */
  userClient(): Promise<PaperspaceClient | undefined>;
}

function privateReplier(args: ButtonArgs, userId: string): Click['replyPrivately'] {
  return async (message) => {
    if (args.body.response_url) {
      await args.respond({ response_type: 'ephemeral', replace_original: false, ...message });
    } else {
      await args.client.chat.postMessage({ channel: userId, ...message });
    }
  };
}

function readClick(args: ButtonArgs, deps: ListenerDeps, logger: Logger): Click {
  const { body, action } = args;
  const user = { teamId: body.user.team_id ?? body.team?.id ?? '', userId: body.user.id };
  const replyPrivately = privateReplier(args, user.userId);
  const message = body.message
    ? {
        ts: body.message.ts,
        text: body.message.text ?? '',
        blocks: Array.isArray(body.message.blocks) ? (body.message.blocks as KnownBlock[]) : [],
      }
    : undefined;
  return {
    user,
    // A value that cannot be read is a bug or a forged request; it throws, and the clicker is told.
    machine: decodeMachineRef(action.value ?? ''),
    channelId: body.channel?.id,
    message,
    logger,
    replyPrivately,
    async userClient() {
      const userClient = await deps.clients.forUser(user);
      if (userClient === undefined) await replyPrivately(loginPrompt());
      return userClient;
    },
  };
}

/** Acks at once, then runs the handler; any failure is told to the clicker alone, in one sentence. */
export function buttonHandler(
  deps: ListenerDeps,
  handle: (click: Click, args: ButtonArgs) => Promise<void>,
): (args: ButtonArgs) => Promise<void> {
  return async (args) => {
    await args.ack();
    const logger = deps.logger.child({ action: args.action.action_id, user: args.body.user.id });
    try {
      await handle(readClick(args, deps, logger), args);
    } catch (error) {
      await privateReplier(args, args.body.user.id)(errorMessage(messageForUser(error, logger)));
    }
  };
}
