// The short-lived handles Slack gives an app with each request: a trigger_id (opens a modal, once,
// within 3 seconds) and a response_url (answers in the conversation, up to 5 times in 30 minutes).
// The sandbox enforces the same limits, so a handler that is too slow or answers too often shows it.
import { randomBytes } from 'node:crypto';

const TRIGGER_TTL_MS = 3_000;
const RESPONSE_URL_TTL_MS = 30 * 60_000;
const RESPONSE_URL_USES = 5;

/** Where a response_url answers: the conversation and, for a click, the message clicked. */
interface ResponseTarget {
  userId: string;
  channel: string;
  /** The message holding the clicked element, for replace_original and delete_original. */
  source: { kind: 'command' } | { kind: 'message'; ts: string; ephemeral: boolean };
}

export interface Grants {
  issueTrigger(userId: string): string;
  /** The person the trigger was issued for, or Slack's error for it. */
  useTrigger(triggerId: string): { userId: string } | { error: 'invalid_trigger_id' | 'expired_trigger_id' };
  issueResponseUrl(target: ResponseTarget): string;
  /** Counts one use; Slack's error once the URL is unknown, used up or expired. */
  useResponseUrl(id: string): ResponseTarget | { error: 'not_found' | 'used_url' | 'expired_url' };
}

/** Handles are dropped once this many are outstanding, oldest first, so memory stays bounded. */
const MAX_OUTSTANDING = 5_000;

export function createGrants({ now }: { now: () => number }): Grants {
  const triggers = new Map<string, { userId: string; issuedAt: number; used: boolean }>();
  const responseUrls = new Map<string, { target: ResponseTarget; issuedAt: number; uses: number }>();
  let sequence = 0;

  const bounded = (map: Map<string, unknown>): void => {
    for (const key of map.keys()) {
      if (map.size <= MAX_OUTSTANDING) break;
      map.delete(key);
    }
  };

  return {
    issueTrigger(userId) {
      sequence += 1;
      // Slack's trigger ids look like `<number>.<number>.<hex>`; apps treat them as opaque.
      const id = `${sequence}.${Math.floor(now() / 1000)}.${randomBytes(8).toString('hex')}`;
      triggers.set(id, { userId, issuedAt: now(), used: false });
      bounded(triggers);
      return id;
    },

    useTrigger(triggerId) {
      const trigger = triggers.get(triggerId);
      if (trigger === undefined || trigger.used) return { error: 'invalid_trigger_id' };
      if (now() - trigger.issuedAt > TRIGGER_TTL_MS) return { error: 'expired_trigger_id' };
      trigger.used = true;
      return { userId: trigger.userId };
    },

    issueResponseUrl(target) {
      const id = randomBytes(12).toString('base64url');
      responseUrls.set(id, { target, issuedAt: now(), uses: 0 });
      bounded(responseUrls);
      return id;
    },

    useResponseUrl(id) {
      const grant = responseUrls.get(id);
      if (grant === undefined) return { error: 'not_found' };
      if (now() - grant.issuedAt > RESPONSE_URL_TTL_MS) return { error: 'expired_url' };
      if (grant.uses >= RESPONSE_URL_USES) return { error: 'used_url' };
      grant.uses += 1;
      return grant.target;
    },
  };
}
