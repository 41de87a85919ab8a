// Credentials opened from a person's stored entry, kept for a short while so that their next click or
// command within it does not run AES-GCM, JSON.parse and the schema again: under a burst of requests,
// opening the same entry over and over is a share of every request's CPU, and garbage.
//
// Why this is safe:
// - The entry is still read from the store on every request; only its opening is skipped, and only
//   when the stored key id, IV, auth tag and ciphertext are byte for byte those that were opened. Opening
//   is a pure function of those bytes, the person and the configured key, so the answer is the one
//   opening would give. A new link, /ps logout (no entry: nothing is asked of this), a purge or a
//   VAULT_KEY rotation (a new IV) changes or removes the entry, so nothing kept outlives the link.
// - The plaintext is in this process's memory anyway while a request uses it (the client sends it with
//   every call); keeping it widens that window by KEEP_MS at most, not who can read it. It is never
//   logged, stored or put in an error.
// - Bounded: at most MAX_PEOPLE entries (the oldest kept goes first), each a few short strings.
import type { VaultEntry } from '../store/vault-entries.js';

const KEEP_MS = 2 * 60_000;
const MAX_PEOPLE = 10_000;

/** `Credentials` are key-vault.ts' (a type parameter, so this file does not import its user). */
export interface OpenedCredentials<Credentials> {
  /** What `entry` opened to, if it was opened in the last KEEP_MS and has not changed since. */
  get(entry: VaultEntry): Credentials | undefined;
  keep(entry: VaultEntry, credentials: Credentials): void;
  forget(person: { teamId: string; userId: string }): void;
}

const personKey = (person: { teamId: string; userId: string }) => `${person.teamId}:${person.userId}`;

export function createOpenedCredentials<Credentials>(now: () => number): OpenedCredentials<Credentials> {
  const kept = new Map<string, { sealed: VaultEntry['sealed']; credentials: Credentials; until: number }>();
  return {
    get(entry) {
      const found = kept.get(personKey(entry));
      if (found === undefined) return undefined;
      const { sealed } = entry;
      const same =
        found.sealed.keyId === sealed.keyId &&
        found.sealed.iv.equals(sealed.iv) &&
        found.sealed.authTag.equals(sealed.authTag) &&
        found.sealed.ciphertext.equals(sealed.ciphertext);
      if (same && found.until > now()) return found.credentials;
      kept.delete(personKey(entry));
      return undefined;
    },
    keep(entry, credentials) {
      const key = personKey(entry);
      kept.delete(key);
      kept.set(key, { sealed: entry.sealed, credentials, until: now() + KEEP_MS });
      for (const oldest of kept.keys()) {
        if (kept.size <= MAX_PEOPLE) break;
        kept.delete(oldest);
      }
    },
    forget(person) {
      kept.delete(personKey(person));
    },
  };
}
