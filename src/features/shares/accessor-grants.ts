// How a share gives access, on both APIs: the teammates named, and the channel's members who claim it,
// are made accessors of the machines with the sharer's key, and exactly those grants are removed again
// when the share ends (the scheduler at expiry, or the sharer's End share). A removal Paperspace
// refuses is kept to be retried, and said as it is.
import type { Logger } from 'pino';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceNotFoundError } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { AccessorGrant, Delegation, DelegationRepository } from '../../store/delegations.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';

/** How long a refused removal waits before the next attempt, and how long one attempt is leased. */
export const REVOKE_RETRY_MS = 60_000;

export interface Recipient {
  slackUserId: string;
  paperspaceUserId: string;
}

export type Recipients =
  | { ok: true; recipients: Recipient[] }
  /** Why the share cannot be made for these people, with their mentions (so not an error's text). */
  | { ok: false; refusal: SlackMessage };

function refusal(text: string): Recipients {
  return { ok: false, refusal: plainMessage(text) };
}

/**
 * The mentioned Slack users as Paperspace users of the sharer's team, given access as soon as the
 * share is made (none: the channel's members claim it themselves). Each must have linked a key (that
 * is how the bot knows their Paperspace user, and how they will use the machines).
 */
export async function resolveRecipients(
  vault: Pick<KeyVault, 'account'>,
  sharer: SlackUser,
  mentioned: readonly string[],
): Promise<Recipients> {
  const others = mentioned.filter((id) => id !== sharer.userId);
  if (others.length === 0) return { ok: true, recipients: [] };
  const own = await vault.account(sharer);
  const recipients: Recipient[] = [];
  const unlinked: string[] = [];
  const elsewhere: string[] = [];
  for (const slackUserId of others) {
    const account = await vault.account({ teamId: sharer.teamId, userId: slackUserId });
    if (account === undefined) unlinked.push(slackUserId);
    else if (own?.teamId && account.teamId && account.teamId !== own.teamId) elsewhere.push(slackUserId);
    else recipients.push({ slackUserId, paperspaceUserId: account.userId });
  }
  const who = (ids: string[]) => ids.map((id) => `<@${escapeMrkdwn(id)}>`).join(', ');
  if (unlinked.length > 0) {
    return refusal(
      `⚠️ ${who(unlinked)} linked no Paperspace key, so I cannot tell who they are on Paperspace. ` +
        'Ask them to run `/ps login`, then share again. Nothing was shared.',
    );
  }
  if (elsewhere.length > 0) {
    return refusal(
      `⚠️ ${who(elsewhere)} linked a key of another Paperspace team: only members of your team can be ` +
        'given access to its machines. Nothing was shared.',
    );
  }
  return { ok: true, recipients };
}

export interface GrantDeps {
  audit: AuditTrail;
}

/** Whether a person can already use a machine without the share: their access then stays theirs. */
export type AccessCheck = (machineId: string, recipient: Recipient) => Promise<boolean>;

/**
 * How to tell who already has access. Where accessors can be listed (v1), the sharer's key lists
 * them. Where they cannot (the contract), the person's own key is asked for the machine: one they
 * can already see (their team's, or shared some other way) is theirs to use already.
 */
export function existingAccess(
  clients: Pick<PaperspaceClientFactory, 'forUser'>,
  sharerClient: PaperspaceClient,
  teamId: string,
): AccessCheck {
  const listed = new Map<string, Promise<Set<string>>>();
  return async (machineId, recipient) => {
    if (sharerClient.capabilities.listAccessors) {
      const accessors =
        listed.get(machineId) ?? sharerClient.machines.accessors(machineId).then((ids) => new Set(ids));
      listed.set(machineId, accessors);
      return (await accessors).has(recipient.paperspaceUserId);
    }
    const own = await clients.forUser({ teamId, userId: recipient.slackUserId });
    if (own === undefined) return false;
    try {
      await own.machines.show(machineId, { maxRetries: 1 });
      return true;
    } catch (error) {
      if (error instanceof PaperspaceNotFoundError) return false;
      throw error;
    }
  };
}

/**
 * Makes each recipient an accessor of each machine. A recipient who already had access keeps it and
 * is not recorded, so the share's end never removes access given some other way. On a refusal the
 * grants made so far are returned with the error, for the caller to remove.
 */
export async function grantAccess(
  deps: GrantDeps,
  client: PaperspaceClient,
  sharer: SlackUser,
  machineIds: readonly string[],
  recipients: readonly Recipient[],
  hasAccess: AccessCheck,
): Promise<{ grants: AccessorGrant[]; error?: unknown }> {
  const grants: AccessorGrant[] = [];
  try {
    for (const machineId of machineIds) {
      for (const recipient of recipients) {
        if (await hasAccess(machineId, recipient)) continue;
        await deps.audit.run(
          {
            user: sharer,
            action: 'share.grant',
            resourceId: machineId,
            note: `accessor ${recipient.paperspaceUserId} (<@${recipient.slackUserId}>) for a 4-hour share`,
          },
          () =>
            client.machines.setAccess(machineId, { userId: recipient.paperspaceUserId, enableAccess: true }),
        );
        grants.push({ machineId, ...recipient, revoked: false });
      }
    }
    return { grants };
  } catch (error) {
    return { grants, error };
  }
}

export interface RevokeDeps {
  store: { delegations: Pick<DelegationRepository, 'recordRevoke' | 'markExpired'> };
  audit: AuditTrail;
  now: () => number;
  logger: Logger;
}

/**
 * Removes the grants of a share that are still in place, with the sharer's key (undefined when they
 * unlinked it), records the outcome and returns the share as it now stands. A grant Paperspace no
 * longer knows (404) counts as removed: someone removed it already.
 */
export async function revokeGrants(
  deps: RevokeDeps,
  client: PaperspaceClient | undefined,
  share: Delegation,
  options?: RequestOptions,
): Promise<Delegation> {
  const grants = (share.grants ?? []).map((grant) => ({ ...grant }));
  let failure: string | null = null;
  if (client === undefined) {
    failure =
      `<@${share.userId}>, who shared, no longer has a linked Paperspace key, so I cannot remove the access ` +
      'with it: remove it in the Paperspace console, or link the key again with `/ps login`.';
  } else {
    for (const grant of grants) {
      if (grant.revoked) continue;
      try {
        await deps.audit.run(
          {
            user: share,
            action: 'share.revoke',
            resourceId: grant.machineId,
            note: `accessor ${grant.paperspaceUserId} (<@${grant.slackUserId}>) at the end of a share`,
          },
          () =>
            client.machines.setAccess(
              grant.machineId,
              { userId: grant.paperspaceUserId, enableAccess: false },
              options,
            ),
        );
        grant.revoked = true;
      } catch (error) {
        if (error instanceof PaperspaceNotFoundError) grant.revoked = true;
        else failure = error instanceof Error ? error.message : String(error);
      }
    }
  }
  const now = deps.now();
  const done = grants.every((grant) => grant.revoked);
  const outcome = {
    grants,
    revokedAt: done ? now : null,
    failure: done ? null : failure,
    retryAt: done ? null : now + REVOKE_RETRY_MS,
  };
  await deps.store.delegations.recordRevoke(share.id, outcome);
  if (done) await deps.store.delegations.markExpired(share.id, now);
  else
    deps.logger.warn({ shareId: share.id, failure }, 'could not remove the access a share gave; will retry');
  return { ...share, grants, revokedAt: outcome.revokedAt, revokeFailure: outcome.failure };
}

/** What a share's end removed, as one sentence for the sharer. */
export function revokeSummary(share: Delegation): string {
  const left = (share.grants ?? []).filter((grant) => !grant.revoked);
  if (left.length === 0) return 'Their access to the machines was removed.';
  const list = left.map((grant) => `<@${grant.slackUserId}> on ${grant.machineId}`).join(', ');
  return (
    `Access not removed yet: ${list}.` +
    (share.revokeFailure ? ` Removing it failed: ${share.revokeFailure}` : '') +
    ' I keep trying every minute.'
  );
}
