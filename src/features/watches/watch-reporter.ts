// The Slack side of a watch: the card updated in place as the state changes, and the completion when
// the watch ends: a reply in its thread, or a line in one message with the others finishing in the same
// channel at once (completion-batches.ts). A card that cannot be updated (deleted, or in a channel the
// bot left) never costs the completion: the failure is logged and the reply still goes out, to the
// person when the channel refuses it.

import type { Logger } from 'pino';
import { describeError } from '../../errors/describe-error.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { WorkspaceSlack } from '../../scheduler/job.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { TimelineEntry, Watch } from '../../store/watch-types.js';
import { machineCardMessage } from '../machines/blocks/machine-card.js';
import { createCompletionBatches } from './completion-batches.js';
import { completeStep } from './step-completion.js';
import { finishedNotice, goneCard, type WatchOutcome, waitingNotice } from './watch-messages.js';

/** What the completion's post does to its record, so that a crash or an unanswered post leaves a trace. */
interface CompletionRecord {
  /** The reply is about to be handed to Slack (after its turn in the channel's queue). */
  sending(): Promise<void>;
  /** Slack refused it in every conversation: nothing was posted. */
  refused(): Promise<void>;
  /** Slack took it. */
  delivered(): Promise<void>;
}

export interface WatchReporter {
  /** The machine changed state: the card shows the new state and the timeline. */
  progress(watch: Watch, machine: Machine, timeline: TimelineEntry[]): Promise<void>;
  /**
   * The watch ended: the thread reply, then `record.delivered()`, then the final card (when there is a
   * machine to show). Rejects when the reply reached no one, or Slack did not answer; a card that could
   * not be updated is only logged. `mayRepeat`: an earlier post of this reply may have landed, and the
   * reply says so.
   */
  finished(
    watch: Watch,
    outcome: WatchOutcome,
    machine: Machine | undefined,
    timeline: TimelineEntry[],
    record: CompletionRecord,
    mayRepeat?: boolean,
  ): Promise<void>;
}

export function createWatchReporter(deps: {
  slack: WorkspaceSlack;
  logger: Logger;
  /**
   * The bot's one pacer (listeners post through it too): keeps a burst of finishes within Slack's
   * per-channel and chat.update limits, in order behind the cards posted before them.
   */
  pacer: ChannelPacer;
  /** Redraws the App Home of the person whose watch in their DM ended (App Home cards go there). */
  refreshHome?: (user: SlackUser) => Promise<void>;
  /** Redraws the row of a reminder, alert or digest the ended watch was started from (row-messages.ts). */
  finishRow?: (watch: Watch, outcome: WatchOutcome) => Promise<void>;
  /**
   * Told of a machine a watch followed to off (a stop the bot sent), so the features above that keep
   * messages about running machines (the forgotten-machine alerts) end them now, not at their next check.
   */
  machineOff?: (watch: Watch) => Promise<void>;
}): WatchReporter {
  const { slack, logger, pacer } = deps;
  const batches = createCompletionBatches({ slack, pacer, logger });

  /** After the outcome is recorded: a listener that fails must not make it due again. */
  const tellMachineOff = async (watch: Watch, outcome: WatchOutcome) => {
    if (outcome.status !== 'done' || outcome.state !== 'off') return;
    await deps.machineOff?.(watch).catch((error: unknown) => {
      logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not pass on a machine now off');
    });
  };

  /**
   * `draw` is called only when the update goes out: in a burst most updates wait for chat.update's
   * budget and are replaced by a newer one of the same card, so drawing each would be wasted work.
   */
  const updateCard = async (watch: Watch, draw: () => SlackMessage) => {
    if (watch.messageTs === null) return;
    const ts = watch.messageTs;
    // The update may go out later from the pacer's queue, so it handles its own failure.
    await pacer.update(`${watch.channel}/${ts}`, async () => {
      try {
        const message = draw();
        await (await slack(watch.teamId)).chat.update({
          channel: watch.channel,
          ts,
          blocks: message.blocks,
          text: message.text,
        });
      } catch (error) {
        logger.warn(
          { watchId: watch.id, channel: watch.channel, error: describeError(error) },
          'could not update the card of a watch',
        );
      }
    });
  };

  // The completion waits for its channel's turn in the pacer (Slack takes about one message a second
  // there) with the others finishing meanwhile, and goes out in one message with them
  // (completion-batches.ts); alone, it takes the whole fallback chain: its thread, the channel (a
  // thread whose parent was deleted refuses replies), the person's DM (the channel was deleted,
  // archived or forbids the bot), and last an ephemeral message in the channel.
  const reply = async (watch: Watch, outcome: WatchOutcome, mayRepeat: boolean, record: CompletionRecord) => {
    const delivery = await batches.post({
      watch,
      outcome,
      mayRepeat,
      // Recorded before the post leaves, not when it is queued: only a post that went out can repeat.
      sending: () => record.sending(),
    });
    if (delivery.landed === 'nowhere') await record.refused();
    if (delivery.landed === 'nowhere' || delivery.landed === 'unknown') {
      throw new Error(
        `the completion of watch ${watch.id} was not delivered (${delivery.landed}: ${delivery.refusal})`,
      );
    }
    if ((delivery.landed === 'channel' || delivery.landed === 'dm') && delivery.shortened) {
      logger.warn(
        { watchId: watch.id, channel: watch.channel, ...delivery.shortened },
        'Slack refused the completion of a watch as too big; its words alone were posted',
      );
    }
    // A change asked from App Home is followed in the person's DM by design: no refusal to report.
    const meantForDm = watch.channel === watch.userId;
    if (delivery.landed !== 'channel' && !(meantForDm && delivery.landed === 'dm')) {
      logger.warn(
        { watchId: watch.id, channel: watch.channel, landed: delivery.landed },
        'the channel of a watch refused its completion; it went to the person instead',
      );
    }
  };

  return {
    async progress(watch, machine, timeline) {
      // A Wait step's watch has no card: Workflow Builder shows the step as running until it ends.
      if (watch.functionExecutionId !== null) return;
      await updateCard(watch, () => machineCardMessage(machine, { timeline, notice: waitingNotice(watch) }));
    },

    async finished(watch, outcome, machine, timeline, record, mayRepeat = false) {
      const { functionExecutionId } = watch;
      if (functionExecutionId !== null) {
        await record.sending();
        await completeStep(
          { slack: await deps.slack(watch.teamId), logger: deps.logger },
          { ...watch, functionExecutionId },
          outcome,
          machine,
        );
        await record.delivered();
        return tellMachineOff(watch, outcome);
      }
      // The reply goes first and is recorded at once: a crash between Slack taking it and the record is
      // the one moment a completion can be posted twice (docs/scheduler.md), so nothing else sits in it.
      // A reply no one took is thrown: the outcome stays due and is posted again later (watch-outcomes.ts).
      await reply(watch, outcome, mayRepeat, record);
      await record.delivered();
      if (outcome.status === 'gone') await updateCard(watch, () => goneCard(watch));
      else if (machine !== undefined) {
        await updateCard(watch, () =>
          machineCardMessage(machine, { timeline, notice: finishedNotice(watch, outcome) }),
        );
      }
      // The outcome is posted and recorded: a row that cannot be redrawn must not make it due again.
      await deps.finishRow?.(watch, outcome).catch((error: unknown) => {
        logger.warn(
          { watchId: watch.id, error: describeError(error) },
          'could not redraw the row of a watch',
        );
      });
      await tellMachineOff(watch, outcome);
      // A change asked from App Home is followed in the person's DM (its completion lands there): the
      // Home still shows the state of the click until it is drawn again. (A change typed in the DM
      // refreshes it too, harmlessly.)
      if (deps.refreshHome && (watch.channel === watch.userId || watch.channel.startsWith('D'))) {
        // The outcome is posted and recorded: a Home that cannot be drawn must not make it due again.
        await deps.refreshHome({ teamId: watch.teamId, userId: watch.userId }).catch((error: unknown) => {
          logger.warn({ watchId: watch.id, error: describeError(error) }, 'could not refresh the App Home');
        });
      }
    },
  };
}
