// A person's opened Paperspace key, kept in memory between polls instead of read from the store and
// decrypted every tick (at 10,000 people that was 10,000 row reads and decryptions per interval).
//
// Why this is safe:
// - The plaintext key is in this process's memory anyway for as long as a poll runs (the client sends
//   it with every call); keeping it between polls widens that window, not who can read it. It never
//   leaves memory: not logged, not stored, not put in an error.
// - It is bounded: each entry lives at most KEY_TTL_MS (then the vault is asked again) and at most
//   MAX_PEOPLE entries are kept (the oldest goes first). Each entry is a pair of short strings.
// - It never outlives the link it came from. Every tick's lease claim reads each held person's seal
//   (the key id and IV of their stored entry, neither secret), and an entry is used only while that
//   seal is unchanged: /ps logout and a workspace purge delete the entry, a new link seals it again,
//   and a VAULT_KEY rotation reseals it with a new IV, so each drops the kept key at the next tick.
//   A person this replica no longer holds (no watches and no link, or taken over) is dropped too.
// Clients are built per poll from the kept key: keeping one per person would grow the bot's memory with
// every person, and building one costs no decryption or I/O.
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Credentials, KeyVault } from '../../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';

const KEY_TTL_MS = 10 * 60_000;
const MAX_PEOPLE = 50_000;

export interface PersonKeys {
  /**
   * A client with the person's key, kept from an earlier poll while `seal` (their stored entry's seal,
   * null when they have none) is unchanged; otherwise opened from the vault. Undefined when unlinked.
   */
  clientFor(
    user: SlackUser,
    userKey: string,
    seal: string | null | undefined,
  ): Promise<PaperspaceClient | undefined>;
  /** Forgets everyone not in `held`. */
  keepOnly(held: ReadonlySet<string>): void;
}

export function createPersonKeys(deps: {
  vault: Pick<KeyVault, 'credentials'>;
  clients: PaperspaceClientFactory;
  now: () => number;
}): PersonKeys {
  const kept = new Map<string, { seal: string; credentials: Credentials; until: number }>();
  return {
    async clientFor(user, userKey, seal) {
      const entry = kept.get(userKey);
      if (entry !== undefined && entry.seal === seal && entry.until > deps.now()) {
        return deps.clients.forCredentials(entry.credentials);
      }
      kept.delete(userKey);
      const credentials = await deps.vault.credentials(user);
      if (credentials === undefined) return undefined;
      // Without a seal read at the claim, nothing would tell when the kept key goes stale: not kept.
      if (typeof seal === 'string') {
        kept.set(userKey, { seal, credentials, until: deps.now() + KEY_TTL_MS });
        for (const oldest of kept.keys()) {
          if (kept.size <= MAX_PEOPLE) break;
          kept.delete(oldest);
        }
      }
      return deps.clients.forCredentials(credentials);
    },
    keepOnly(held) {
      for (const userKey of kept.keys()) if (!held.has(userKey)) kept.delete(userKey);
    },
  };
}
