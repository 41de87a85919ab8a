// The Slack side of a watch: the card updated in place as the state changes, and the one reply in its
// thread when the watch ends. A card that cannot be updated (deleted, or in a channel the bot left)
// never costs the completion: the failure is logged and the reply still goes out.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError, slackErrorCode } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import type { TimelineEntry, Watch } from '../../store/watch-types.js';
import { machineCardMessage } from '../machines/blocks/machine-card.js';
import {
  completionReply,
  finishedNotice,
  goneCard,
  type WatchOutcome,
  waitingNotice,
} from './watch-messages.js';

export interface WatchReporter {
  /** The machine changed state: the card shows the new state and the timeline. */
  progress(watch: Watch, machine: Machine, timeline: TimelineEntry[]): Promise<void>;
  /**
   * The watch ended: final card (when there is a machine to show) and the thread reply. Rejects when
   * the reply could not be posted; a card that could not be updated is only logged.
   */
  finished(
    watch: Watch,
    outcome: WatchOutcome,
    machine: Machine | undefined,
    timeline: TimelineEntry[],
  ): Promise<void>;
}

export function createWatchReporter(deps: {
  slack: WebClient;
  logger: Logger;
  /** Keeps a burst of finishes within Slack's per-channel and chat.update limits, in order. */
  pacer: ChannelPacer;
}): WatchReporter {
  const { slack, logger, pacer } = deps;

  const updateCard = async (watch: Watch, message: SlackMessage) => {
    if (watch.messageTs === null) return;
    const ts = watch.messageTs;
    // The update may go out later from the pacer's queue, so it handles its own failure.
    await pacer.update(`${watch.channel}/${ts}`, async () => {
      try {
        await slack.chat.update({ channel: watch.channel, ts, blocks: message.blocks, text: message.text });
      } catch (error) {
        logger.warn(
          { watchId: watch.id, channel: watch.channel, error: describeError(error) },
          'could not update the card of a watch',
        );
      }
    });
  };

  const reply = async (watch: Watch, message: SlackMessage) => {
    const threadTs = watch.threadTs ?? watch.messageTs ?? undefined;
    const send = (inThread: boolean) =>
      pacer.message(watch.channel, () =>
        slack.chat.postMessage({
          channel: watch.channel,
          blocks: message.blocks,
          text: message.text,
          ...(inThread && threadTs !== undefined ? { thread_ts: threadTs } : {}),
        }),
      );
    try {
      await send(true);
    } catch (error) {
      // A thread whose parent was deleted refuses replies; the channel itself still takes the message.
      if (threadTs === undefined || slackErrorCode(error) === undefined) throw error;
      logger.warn(
        { watchId: watch.id, channel: watch.channel, error: describeError(error) },
        'could not reply in the thread of a watch; posting in the channel instead',
      );
      await send(false);
    }
  };

  return {
    async progress(watch, machine, timeline) {
      await updateCard(watch, machineCardMessage(machine, { timeline, notice: waitingNotice(watch) }));
    },

    async finished(watch, outcome, machine, timeline) {
      if (outcome.status === 'gone') await updateCard(watch, goneCard(watch));
      else if (machine !== undefined) {
        await updateCard(
          watch,
          machineCardMessage(machine, { timeline, notice: finishedNotice(watch, outcome) }),
        );
      }
      // A reply Slack refuses is thrown: the outcome stays due and is posted again later
      // (watch-outcomes.ts). The card update above is safe to repeat then.
      await reply(watch, completionReply(watch, outcome));
    },
  };
}
