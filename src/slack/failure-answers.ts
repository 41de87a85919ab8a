// A listener that fails before its ack leaves Slack waiting: over HTTP the receiver answers 500, over
// Socket Mode nothing, and either way the person sees Slack's generic "didn't respond" with no idea
// whether anything happened. Every listener is registered through the router wrapped here, so such a
// failure is answered on the surface it came from, in words (failureText: the sentence a
// UserFacingError carries, or a reference to quote for a bug, logged once). The failure then goes on to
// Bolt's error handler like any other, so it is counted as an error (observability/slack-requests.ts),
// marked as answered so that the handler neither logs it a second time nor has the receiver answer
// again. A failure after the ack is the listener's own to report and goes on as before.
import type {
  Middleware,
  SlackActionMiddlewareArgs,
  SlackCommandMiddlewareArgs,
  SlackViewMiddlewareArgs,
  ViewSubmitAction,
} from '@slack/bolt';
import type { Logger } from 'pino';
import { MalformedPayloadError } from '../errors/malformed-payload-error.js';
import { failureText } from '../errors/user-message.js';
import { errorMessage } from './block-kit/messages.js';
import { statusModal } from './block-kit/status-modal.js';
import { escapeMrkdwn } from './block-kit/text.js';
import type { ChannelPacer } from './channel-pacer.js';

type AckFunction = (...response: never[]) => Promise<void>;

/** Failures already logged and told to the person here; Bolt's error handler only passes them on. */
const answered = new WeakSet<object>();

export function wasAnswered(error: unknown): boolean {
  return typeof error === 'object' && error !== null && answered.has(error);
}

/** Runs `listener` with an ack that records whether it was called; answers with `answer` if not. */
async function answeredOnFailure<Args extends { ack: AckFunction }>(
  args: Args,
  listener: (args: Args) => Promise<unknown>,
  answer: (text: string) => Promise<void>,
  logger: Logger,
): Promise<void> {
  let acked = false;
  const ack = args.ack;
  const tracked = {
    ...args,
    ack: (async (...response: never[]) => {
      acked = true;
      await ack(...response);
    }) as Args['ack'],
  };
  try {
    await listener(tracked);
  } catch (error) {
    if (acked) throw error;
    if (error instanceof MalformedPayloadError)
      logger.warn({ detail: error.detail }, 'refused a malformed request from Slack');
    await answer(failureText(error, logger));
    if (typeof error === 'object' && error !== null) answered.add(error);
    throw error;
  }
}

export function answerCommandFailures(
  listener: Middleware<SlackCommandMiddlewareArgs>,
  logger: Logger,
): Middleware<SlackCommandMiddlewareArgs> {
  return (args) =>
    answeredOnFailure(
      args,
      listener,
      (text) => args.ack({ response_type: 'ephemeral', ...errorMessage(text) }),
      logger,
    );
}

export function answerActionFailures<Args extends SlackActionMiddlewareArgs>(
  listener: Middleware<Args>,
  { logger, pacer }: { logger: Logger; pacer: ChannelPacer },
): Middleware<Args> {
  return (args) =>
    answeredOnFailure(
      args as Args & { ack: AckFunction },
      listener as (args: Args & { ack: AckFunction }) => Promise<unknown>,
      async (text) => {
        await args.ack();
        const answer = errorMessage(text);
        // Only the clicker is told: ephemeral where the message is, in their DM from the Home tab or a modal.
        if (args.body.type === 'block_actions' && args.body.response_url)
          await args.respond({ response_type: 'ephemeral', replace_original: false, ...answer });
        else {
          // In the DM's lane of the bot's pacer, like every other post there.
          const channel = args.body.user.id;
          await pacer.message(channel, () => args.client.chat.postMessage({ channel, ...answer }));
        }
      },
      logger,
    );
}

export function answerViewFailures(
  listener: Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>>,
  logger: Logger,
): Middleware<SlackViewMiddlewareArgs<ViewSubmitAction>> {
  return (args) =>
    answeredOnFailure(
      args,
      listener,
      // Pushed over the form, not in its place: closing it goes back to the form with what was typed.
      (text) =>
        args.ack({
          response_action: 'push',
          view: statusModal({ title: 'Nothing was done', text: `❌ ${escapeMrkdwn(text)}`, close: 'Back' }),
        }),
      logger,
    );
}
