// What a shutdown reminder sends: the person's own machines that still run (theirs by the one owner
// rule, as their Home's "Your machines"), each with Stop, Snooze 1h and Keep running, in one message to
// their DM with the app. Nothing running: no message at all.
// Every message goes through the fallback chain (posting.ts deliver): a snooze whose conversation was
// archived or deleted since still reaches the person, in their DM.

import type { Logger } from 'pino';
import { isOwnedBy, machineOwners, withSoleUser } from '../../domain/machine-owner.js';
import { isStoppable } from '../../domain/machine-states.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { WorkspaceSlack } from '../../scheduler/job.js';
import { errorMessage, plainMessage } from '../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { ChannelPacer } from '../../slack/channel-pacer.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { deliver } from '../../slack/posting.js';
import type { MachineOwnerRepository } from '../../store/machine-owners.js';
import type { Snooze, SnoozeRepository } from '../../store/reminder-snoozes.js';
import type { Reminder } from '../../store/reminders.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { KeyVault, LinkedAccount } from '../../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { reminderMessage } from './blocks/reminder.js';

export interface ReminderDelivery {
  /** A reminder fired: the person's running machines, or nothing when none run. */
  remind(reminder: Reminder): Promise<void>;
  /** A snooze came due: that one machine again, if it still runs. */
  remindAgain(snooze: Snooze): Promise<void>;
}

export interface ReminderDeliveryDeps {
  clients: PaperspaceClientFactory;
  /** A machine with a pending snooze is asked about when the snooze is due, not by the next reminder. */
  snoozes: Pick<SnoozeRepository, 'listByUser'>;
  vault: Pick<KeyVault, 'account'>;
  /** Whose each machine is, where Paperspace does not say (v1). */
  machineOwners: MachineOwnerRepository;
  slack: WorkspaceSlack;
  /** A reminder in a channel takes its turn there with the bot's other posts. */
  pacer: ChannelPacer;
  logger: Logger;
}

export function createReminderDelivery(deps: ReminderDeliveryDeps): ReminderDelivery {
  const post = async (target: { channel: string } & SlackUser, message: SlackMessage) => {
    const delivery = await deliver(
      await deps.slack(target.teamId),
      { channel: target.channel, userId: target.userId },
      message,
      deps.pacer,
    );
    // Refused everywhere: a failed delivery, for the scheduler to log and count (psbot_errors_total).
    if (delivery.landed === 'nowhere') {
      throw new Error(`the reminder reached no conversation (Slack said ${delivery.refusal})`);
    }
    // Posted, so not tried again; but shortened, which only the log tells whoever can fix the builder.
    if ((delivery.landed === 'channel' || delivery.landed === 'dm') && delivery.shortened) {
      deps.logger.warn(
        { channel: target.channel, userId: target.userId, ...delivery.shortened },
        'Slack refused a reminder as too big; its words alone were posted',
      );
    }
    // Its fate unknown: it may have landed, so it is neither counted as failed nor sent again.
    if (delivery.landed === 'unknown') {
      deps.logger.warn(
        {
          channel: target.channel,
          userId: target.userId,
          landed: delivery.landed,
          refusal: delivery.refusal,
        },
        'a reminder may not have reached anyone: Slack left its fate unknown',
      );
    }
  };

  /**
   * A team key lists the whole team's machines; a reminder is about the person's own by the owner
   * rule. A machine with no owner yet is nobody's, so it is in no one's reminder: its team's
   * administrators hear of it from the forgotten-machine alerts, and anyone can claim it.
   */
  const theirs = async (
    client: PaperspaceClient,
    user: SlackUser,
    account: LinkedAccount,
    machines: Machine[],
  ): Promise<Machine[]> => {
    const store = { machineOwners: deps.machineOwners };
    let ownerOf = await machineOwners(store, user.teamId, machines);
    // An account of one person (v1 names no owner) is that person's: asked only when it matters.
    if (machines.some((machine) => ownerOf(machine).kind === 'none')) {
      const users = await client.users.list({});
      const [onlyUser] = users;
      if (onlyUser !== undefined && users.length === 1) ownerOf = withSoleUser(ownerOf, onlyUser.id);
    }
    const person = { userId: user.userId, paperspaceUserId: account.userId };
    return machines.filter((machine) => isOwnedBy(ownerOf(machine), person));
  };

  const runningMachines = async (client: PaperspaceClient, user: SlackUser): Promise<Machine[]> => {
    const account = await deps.vault.account(user);
    const snoozed = new Set((await deps.snoozes.listByUser(user)).map((snooze) => snooze.machineId));
    const running: Machine[] = [];
    for await (const machine of client.machines.listAll()) {
      if (isStoppable(machine.state) && !snoozed.has(machine.id)) running.push(machine);
    }
    // The client came from the person's linked key, so the account is there but for an unlink meanwhile.
    return account === undefined || running.length === 0 ? [] : theirs(client, user, account, running);
  };

  /** Failing silently would be the worst outcome: the person trusts the reminder to tell them. */
  const couldNotCheck = async (target: { channel: string } & SlackUser, error: unknown) => {
    const reason = error instanceof PaperspaceError ? error.message : 'an unexpected error (it was logged)';
    if (!(error instanceof PaperspaceError))
      deps.logger.error({ err: error }, 'a reminder could not list machines');
    await post(target, errorMessage(`Your shutdown reminder could not check your machines: ${reason}`));
  };

  const noKey = async (target: { channel: string } & SlackUser) => {
    const text =
      `⏰ Your shutdown reminder could not check your machines: no Paperspace key is linked. ` +
      `Link one with \`${SLASH_COMMAND} login\`, or turn the reminder off with \`${SLASH_COMMAND} remind off\`.`;
    await post(target, plainMessage(text));
  };

  return {
    async remind(reminder) {
      const client = await deps.clients.forUser(reminder);
      if (client === undefined) return noKey(reminder);
      let machines: Machine[];
      try {
        machines = await runningMachines(client, reminder);
      } catch (error) {
        return couldNotCheck(reminder, error);
      }
      if (machines.length === 0) {
        deps.logger.debug({ reminderId: reminder.id }, 'reminder fired with nothing running; no message');
        return;
      }
      await post(reminder, reminderMessage(machines));
    },

    async remindAgain(snooze) {
      const client = await deps.clients.forUser(snooze);
      if (client === undefined) return noKey(snooze);
      let machine: Machine | undefined;
      try {
        [machine] = await client.machines.list({ machineId: snooze.machineId });
      } catch (error) {
        return couldNotCheck(snooze, error);
      }
      if (machine === undefined || !isStoppable(machine.state)) return;
      await post(snooze, reminderMessage([machine]));
    },
  };
}
