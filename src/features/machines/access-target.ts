// Who `/ps access` and the Access modal mean. Paperspace knows people by its own user ids; a Slack
// mention is mapped through the vault, where a person who linked a key has their Paperspace user.
import type { KeyVault } from '../../vault/key-vault.js';

export type AccessTarget =
  | { ok: true; paperspaceUserId: string; slackUserId?: string }
  /** The mentioned person has linked no key, so their Paperspace user is unknown. */
  | { ok: false; slackUserId: string };

export async function resolveAccessTarget(
  vault: KeyVault,
  teamId: string,
  who: { slackUserId: string } | { paperspaceUserId: string },
): Promise<AccessTarget> {
  if ('paperspaceUserId' in who) return { ok: true, paperspaceUserId: who.paperspaceUserId };
  const account = await vault.account({ teamId, userId: who.slackUserId });
  if (account === undefined) return { ok: false, slackUserId: who.slackUserId };
  return { ok: true, paperspaceUserId: account.userId, slackUserId: who.slackUserId };
}
