// Posts one occurrence of a team digest: the team's machines read with the key of the administrator
// who set it (explicitly theirs, never a key picked from whoever is linked), the running ones with
// their owners and how long they have run, and the month's spend per person. Posted through the
// fallback chain (channel, then the administrator's DM, then ephemeral) and audited.

import { isStoppable } from '../../domain/machine-states.js';
import { runningSince } from '../../domain/running-time.js';
import { teamRoleOf } from '../../domain/team-role.js';
import { PaperspaceError } from '../../paperspace/errors.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import { deliver } from '../../slack/posting.js';
import { createAuditTrail } from '../../store/audit-trail.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { TeamDigest } from '../../store/team-digests.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { JobResources } from '../job-needs.js';
import { budgetsText } from './blocks/budget-lines.js';
import { digestMessage, type RunningMachine } from './blocks/digest.js';
import { NO_OWNER_YET } from './blocks/no-owner-yet.js';
import { ownerLabel } from './blocks/spend.js';
import { readPaceOf } from './read-pace.js';
import { readSpend, type SpendReport } from './spend-report.js';

/** The pacer: the digest takes its turn in its channel with the bot's other posts there. */
export interface DigestDeliveryDeps
  extends Pick<JobResources, 'clients' | 'slack' | 'pacer' | 'logger' | 'now'> {
  store: Pick<Store, 'teamDigests' | 'audit' | 'vaultEntries' | 'approvals' | 'machineOwners' | 'budgets'>;
  vault: Pick<KeyVault, 'account'>;
}

export function createDigestDelivery(deps: DigestDeliveryDeps) {
  const audit = createAuditTrail({ audit: deps.store.audit, now: deps.now, logger: deps.logger });

  /** Posts in the digest's channel through the fallback chain, with the administrator who set it. */
  const deliverToChannel = async (digest: TeamDigest, setter: SlackUser, message: SlackMessage) =>
    deliver(
      await deps.slack(setter.teamId),
      { channel: digest.channel, userId: setter.userId },
      message,
      deps.pacer,
    );

  /** The administrator unlinked: say so in the channel once (the replica that deletes it) and stop. */
  const stopForUnlinkedKey = async (digest: TeamDigest, setter: SlackUser) => {
    const deleted = await audit.run(
      {
        user: setter,
        action: 'digest.stopped',
        resourceId: digest.id,
        note: 'the key that listed the machines was unlinked',
      },
      () => deps.store.teamDigests.delete(digest.id),
    );
    if (!deleted) return;
    const text =
      `📋 The team digest has stopped: <@${setter.userId}>, whose Paperspace key listed the team's machines, ` +
      `unlinked it. A team administrator can set it again with \`${SLASH_COMMAND} digest\`.`;
    await deliverToChannel(digest, setter, plainMessage(text));
  };

  /**
   * Today's digest is not posted: the channel is told why instead, rather than left wondering where it
   * is, and the post is audited as failed with `failure`; the next occurrence tries again.
   */
  const tellNotPosted = async (digest: TeamDigest, setter: SlackUser, text: string, failure: Error) => {
    await audit
      .run(
        { user: setter, action: 'digest.post', resourceId: digest.id, note: `in ${digest.channel}` },
        async () => {
          await deliverToChannel(digest, setter, plainMessage(text));
          throw failure;
        },
      )
      .catch(() => undefined);
  };

  /** Paperspace refused the key (revoked, or no longer an administrator's). */
  const tellNotMade = (digest: TeamDigest, setter: SlackUser, error: PaperspaceError) =>
    tellNotPosted(
      digest,
      setter,
      `📋 Today's team digest could not be made: Paperspace refused the key of <@${setter.userId}>, which ` +
        `lists the team's machines (${escapeMrkdwn(error.message)}). The next one will try again.`,
      error,
    );

  /**
   * v1's session says the key no longer belongs to an administrator: the team's spend is not posted
   * (a member sees only their own).
   */
  const tellNoLongerAdministrator = (digest: TeamDigest, setter: SlackUser) =>
    tellNotPosted(
      digest,
      setter,
      `📋 Today's team digest was not posted: Paperspace says the key of <@${setter.userId}>, which lists the ` +
        "team's machines, no longer belongs to a team administrator, and only administrators see the team's " +
        `spend. An administrator can set it again with \`${SLASH_COMMAND} digest\`.`,
      new Error('the key no longer belongs to a team administrator'),
    );

  return {
    async post(digest: TeamDigest): Promise<void> {
      const setter: SlackUser = { teamId: digest.teamId, userId: digest.setBy };
      const client = await deps.clients.forUser(setter);
      const account = await deps.vault.account(setter);
      if (client === undefined || account === undefined) {
        await stopForUnlinkedKey(digest, setter);
        return;
      }
      let report: SpendReport;
      try {
        // The same rule as /ps spend. Only v1 says the role outright; on the legacy API the digest's
        // setting stands, since asking there needs an access token the administrator may not have linked.
        if (client.capabilities.whoAmI) {
          const person = { user: setter, client, paperspaceUserId: account.userId };
          if ((await teamRoleOf(deps, person)).role !== 'admin') {
            await tellNoLongerAdministrator(digest, setter);
            return;
          }
        }
        report = await readSpend(deps, {
          user: setter,
          client,
          paperspaceUserId: account.userId,
          month: null,
          teamWide: true,
        });
      } catch (error) {
        if (!(error instanceof PaperspaceError)) throw error;
        await tellNotMade(digest, setter, error);
        return;
      }
      const ownerOf = new Map([
        ...report.owners.flatMap((owner) =>
          owner.machines.map((machine) => [machine.id, ownerLabel(owner)] as const),
        ),
        ...report.unowned.map((machine) => [machine.id, NO_OWNER_YET.toLowerCase()] as const),
      ]);
      const running: RunningMachine[] = [];
      const pace = readPaceOf(deps.clients, setter);
      await Promise.all(
        report.machines
          .filter((machine) => isStoppable(machine.state))
          .map(async (machine) => {
            // How long it has run comes from its events; a machine whose events cannot be read is still
            // listed (with its Stop button), only without the duration.
            const events = await pace
              .run((options) => client.machines.show(machine.id, options))
              .then(
                (shown) => shown.events ?? [],
                () => [],
              );
            running.push({
              machine,
              owner: ownerOf.get(machine.id) ?? 'owner unknown',
              since: runningSince(events),
            });
          }),
      );
      running.sort((a, b) => (a.since ?? 0) - (b.since ?? 0) || a.machine.name.localeCompare(b.machine.name));
      const now = deps.now();
      const budgets = budgetsText(await deps.store.budgets.list(digest.teamId, digest.paperspaceTeamId), now);
      await audit.run(
        { user: setter, action: 'digest.post', resourceId: digest.id, note: `in ${digest.channel}` },
        async () => {
          const delivery = await deliverToChannel(
            digest,
            setter,
            digestMessage(running, report, now, budgets),
          );
          if (delivery.landed === 'nowhere') throw new Error(`Slack refused the digest: ${delivery.refusal}`);
          // Posted (its words alone), so not tried again next tick: the log says what was too big.
          if ((delivery.landed === 'channel' || delivery.landed === 'dm') && delivery.shortened) {
            deps.logger.warn(
              {
                digestId: digest.id,
                channel: digest.channel,
                running: running.length,
                ...delivery.shortened,
              },
              'Slack refused the team digest as too big; its words alone were posted',
            );
          }
          return delivery;
        },
      );
    },
  };
}
