// Sharing machines in a channel: a resource delegation created with the sharer's own key, stored so
// its post can be marked expired later, and posted where the share was asked for (or in the sharer's
// DM when the bot may not post there).
import type { WebClient } from '@slack/web-api';
import { slackErrorCode } from '../../errors/describe-error.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import type { Machine } from '../../paperspace/schemas.js';
import { isoMinutes } from '../../slack/block-kit/text.js';
import { type PostedMessage, postPublicly } from '../../slack/posting.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { Delegation } from '../../store/delegations.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { shareMessage } from './blocks/share.js';

export interface SharingDeps {
  store: Pick<Store, 'delegations'>;
  audit: AuditTrail;
  /** The bot's Web API client. */
  slack: WebClient;
  now: () => number;
}

export interface ShareRequest {
  user: SlackUser;
  /** Where the share was asked for; the post goes there. */
  channel: string;
  /** Machines already found with the sharer's key (so they can see them). */
  machines: Pick<Machine, 'id' | 'name'>[];
}

export interface Share {
  delegation: Delegation;
  posted: PostedMessage;
}

export async function shareMachines(
  deps: SharingDeps,
  client: PaperspaceClient,
  request: ShareRequest,
): Promise<Share> {
  const machineIds = [...new Set(request.machines.map((machine) => machine.id))];
  const created = await deps.audit.run(
    {
      user: request.user,
      action: 'delegation.create',
      resourceId: machineIds.join(','),
      note: `shared in ${request.channel}`,
    },
    () => client.delegations.create({ machineIds }),
  );
  // Paperspace counts the four hours from its own creation time; our clock is the fallback.
  const reported = Date.parse(created.dtCreated);
  const createdAt = Number.isNaN(reported) ? deps.now() : reported;
  const expiresAt = createdAt + DELEGATION_LIFETIME_MS;
  const machines = machineIds.map((id) => ({
    id,
    name: request.machines.find((machine) => machine.id === id)?.name ?? id,
  }));
  const message = shareMessage({
    sharerUserId: request.user.userId,
    machines,
    delegationId: created.id,
    accessTokenId: created.accessTokenId,
    expiresAt,
  });
  const record = (channel: string, messageTs: string | null) =>
    deps.store.delegations.create({
      teamId: request.user.teamId,
      userId: request.user.userId,
      delegationId: String(created.id),
      accessTokenId: created.accessTokenId,
      channel,
      messageTs,
      machineIds,
      createdAt,
      expiresAt,
    });
  let posted: PostedMessage;
  try {
    posted = await postPublicly(
      deps.slack,
      { channel: request.channel, userId: request.user.userId },
      message,
    );
  } catch (error) {
    // The delegation exists on Paperspace whatever Slack said: it is stored all the same, so it shows
    // in /ps shares, and the sharer gets its details in the error.
    await record(request.channel, null);
    const reason = slackErrorCode(error) ?? 'Slack could not be reached';
    throw new UserFacingError(
      `Shared ${machines.map((machine) => machine.name).join(', ')} (resource delegation ${created.id}, ` +
        `access token id ${created.accessTokenId}, until ${isoMinutes(expiresAt)}), but the post failed: ${reason}.`,
    );
  }
  return { delegation: await record(posted.channel, posted.ts), posted };
}
