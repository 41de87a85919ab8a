// Stop on a row of a message that lists machines (a cost alert, a reminder, a team digest): the same
// stop as a card's, with the clicker's own key. The machine is re-read; someone else's machine gets
// the answer it gets anywhere (run under the owner's standing grant, or "Ask the owner"); the machines
// service refuses a machine already off or a stop just sent by another click; a stop that went
// through marks the clicked row and is watched to `off` with a reply in the message's thread (the watch
// stored before the call, as the stop's intent). It lives
// in approvals, the lowest feature that can route to an owner; the three rows' features sit above it.
import type { WebClient } from '@slack/web-api';
import type { Machine } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import { alreadyRequestedMessage, powerUnchangedMessage } from '../machines/blocks/machine-replies.js';
import { intentInClickedThread } from '../machines/follow-in-thread.js';
import type { MachineButtonClick } from '../machines/machine-button.js';
import { createMachineOperations } from '../machines/machine-operations.js';
import { notWatchedMessage } from '../machines/machine-watcher.js';
import { type OwnerRouteDeps, routePowerToOwner } from './owner-route.js';

/** What the message a row belongs to does around the stop. */
interface StoppedRow {
  /** Marks the row once the stop was sent (`machine` as re-read; `requestedBy`, the clicker's mention). */
  markStopping(machine: Machine, requestedBy: string): Promise<void>;
  /** Marks the row of a machine found already off; without it the clicker is told privately. */
  markAlreadyOff?(machine: Machine): Promise<void>;
  /** Whatever the row's message holds of the machine besides, once the click is decided (a snooze). */
  clicked?(machine: Machine): Promise<void>;
  /** Records the click itself with its outcome, besides the stop the machines service records. */
  audit?: { action: string; note: string };
}

export type StopFromRow = (click: MachineButtonClick, web: WebClient, row: StoppedRow) => Promise<void>;

export function createStopFromRow(deps: OwnerRouteDeps): StopFromRow {
  const operations = createMachineOperations(deps);
  return async (click, web, row) => {
    const paperspace = await click.userClient();
    if (paperspace === undefined) return;
    const { user } = click;
    const machine = await paperspace.machines.show(click.machine.id);
    const intent = intentInClickedThread(deps, web, click, machine, 'stop');
    const stop = async () => {
      const route = await routePowerToOwner(click, machine, 'stop', {
        deps,
        web,
        noWait: false,
        card: { kind: 'post', channel: click.channelId ?? user.userId },
        tell: click.replyPrivately,
      });
      return route === 'handled'
        ? undefined
        : operations.power({ user, client: paperspace }, machine, 'stop', intent.hooks);
    };
    const outcome = row.audit
      ? await deps.audit.run({ user, resourceId: machine.id, ...row.audit }, stop)
      : await stop();
    await row.clicked?.(machine);
    if (outcome === undefined) return;
    if (outcome.kind === 'already_requested') {
      await click.replyPrivately(alreadyRequestedMessage(machine, 'stop', outcome));
      return;
    }
    if (outcome.kind === 'unchanged') {
      if (row.markAlreadyOff) await row.markAlreadyOff(machine);
      else await click.replyPrivately(powerUnchangedMessage(outcome.machine, outcome.reason));
      return;
    }
    await row.markStopping(machine, `<@${escapeMrkdwn(user.userId)}>`);
    const followed = await intent.follow(outcome);
    if (followed.kind === 'refused') {
      await click.replyPrivately(notWatchedMessage(machine.name, 'was asked to stop', followed.error));
    }
  };
}
