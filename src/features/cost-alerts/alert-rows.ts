// The rows of alert messages about machines that have stopped, however they were stopped (a reminder's
// Stop all, a card, another person's alert, the console): each live row gives way to a line saying so,
// naming who stopped it when the bot did, so nobody is left with buttons for a machine already off.
// The cost guard calls this when a run it follows ends; each message is redrawn from its kept copy
// (store/row-messages.ts), the way a click on it would be.
import type { WebClient } from '@slack/web-api';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import { mention, nameMrkdwn } from '../../slack/block-kit/text.js';
import type { Store } from '../../store/store.js';
import { withLiveAlertEnded } from './blocks/cost-alert.js';

type RowsStore = Pick<Store, 'costAlerts' | 'rowMessages' | 'audit'>;

/** The audit actions that stop a machine through the bot, and those that start it again after. */
const STOPS: ReadonlySet<string> = new Set(['machine.stop', 'approval.stop']);
const STARTS: ReadonlySet<string> = new Set(['machine.start', 'machine.restart', 'approval.start']);

export async function endAlertRows(
  deps: { store: RowsStore; logger: Pick<Logger, 'warn'>; now: () => number },
  web: WebClient,
  teamId: string,
  machines: readonly { id: string; name: string }[],
): Promise<void> {
  const { store } = deps;
  const ids = machines.map((machine) => machine.id);
  const messages = await store.costAlerts.messagesAbout(teamId, ids);
  if (messages.length === 0) return;
  const lines = new Map<string, string>();
  for (const machine of machines) {
    if (!messages.some((message) => message.machineId === machine.id)) continue;
    // The newest power change the bot made: a stop names who; a start since means the bot did not stop it.
    const last = (await store.audit.list({ teamId, resourceId: machine.id, limit: 10 })).find(
      (record) => record.outcome === 'ok' && (STOPS.has(record.action) || STARTS.has(record.action)),
    );
    const by = last !== undefined && STOPS.has(last.action) ? last.userId : undefined;
    lines.set(
      machine.id,
      by === undefined
        ? `⚫ ${nameMrkdwn(machine.name)} is off now.`
        : `⚫ ${nameMrkdwn(machine.name)}: stopped by ${mention(by)}.`,
    );
  }
  for (const message of messages) {
    const line = lines.get(message.machineId);
    if (line === undefined) continue;
    const ref = { teamId, channel: message.channel, ts: message.ts };
    try {
      const drawn = await store.rowMessages.redraw(
        ref,
        undefined,
        (kept) => {
          const blocks = withLiveAlertEnded(kept.blocks, message.machineId, line);
          return blocks && { blocks, text: kept.text };
        },
        deps.now(),
      );
      if (drawn !== undefined) {
        await web.chat.update({ channel: ref.channel, ts: ref.ts, blocks: drawn.blocks, text: drawn.text });
      }
    } catch (error) {
      deps.logger.warn(
        { machineId: message.machineId, error: describeError(error) },
        'could not end the row of an alert about a stopped machine',
      );
    }
  }
  await store.costAlerts.forgetMessages(teamId, [...lines.keys()]);
}
