// AES-256-GCM sealing of one user's credentials. The stored envelope is the key id, a fresh random
// 12-byte IV, the 16-byte auth tag and the ciphertext. The associated data binds a record to its
// Slack user: a ciphertext copied onto another user's row fails authentication instead of handing
// that user someone else's Paperspace key. There is no separate per-record data key: the master key
// is local (not a KMS), so wrapping a data key with it would add a layer without protecting more.
import { createCipheriv, createDecipheriv, createHash, randomBytes } from 'node:crypto';
import type { SealedCredentials } from '../store/sealed-rows.js';
import type { SlackUser } from '../store/slack-user.js';
import { VaultError } from './vault-error.js';

const VAULT_KEY_BYTES = 32;
const IV_BYTES = 12;
const AUTH_TAG_BYTES = 16;
const KEY_ID_LABEL = 'paperspace-chatops vault key id v1\0';
const AAD_LABEL = 'paperspace-chatops vault record v1';

/** A key and its public id. */
export interface VaultKey {
  id: string;
  key: Buffer;
}

/**
 * Names a key without revealing it: the first 16 hex digits of SHA-256 over a fixed label and the
 * key. Lets the vault say which key a record needs, and an operator match it to their list.
 */
export function vaultKeyId(key: Buffer): string {
  return createHash('sha256').update(KEY_ID_LABEL).update(key).digest('hex').slice(0, 16);
}

/** Checks and names the configured keys, the sealing key first. */
export function toVaultKeys(keys: readonly Buffer[]): [VaultKey, ...VaultKey[]] {
  const [first, ...rest] = keys.map((key, index) => {
    if (key.length !== VAULT_KEY_BYTES) {
      throw new VaultError(
        'bad_keys',
        `Vault key ${index + 1} has ${key.length} bytes; ${VAULT_KEY_BYTES} needed.`,
      );
    }
    return { id: vaultKeyId(key), key };
  });
  if (first === undefined) throw new VaultError('bad_keys', 'The vault needs at least one key (VAULT_KEY).');
  const ids = [first, ...rest].map((key) => key.id);
  if (new Set(ids).size !== ids.length)
    throw new VaultError('bad_keys', 'VAULT_KEY lists the same key twice.');
  return [first, ...rest];
}

/**
 * What a sealed record is bound to: its kind's label and the ids of the row it belongs on. JSON keeps
 * the encoding unambiguous: ("T1", "U23") and ("T12", "U3") never produce the same bytes.
 */
export type SealBinding = readonly [label: string, ...ids: string[]];

const userBinding = (user: SlackUser): SealBinding => [AAD_LABEL, user.teamId, user.userId];

export function seal(key: VaultKey, user: SlackUser, plaintext: Buffer): SealedCredentials {
  return sealBound(key, userBinding(user), plaintext);
}

/** The plaintext, or undefined when the record fails authentication (altered, moved, wrong key). */
export function unseal(key: VaultKey, user: SlackUser, sealed: SealedCredentials): Buffer | undefined {
  return unsealBound(key, userBinding(user), sealed);
}

/** Seals `plaintext` so that it opens only on the row `binding` names. */
export function sealBound(key: VaultKey, binding: SealBinding, plaintext: Buffer): SealedCredentials {
  const iv = randomBytes(IV_BYTES);
  const cipher = createCipheriv('aes-256-gcm', key.key, iv, { authTagLength: AUTH_TAG_BYTES });
  cipher.setAAD(Buffer.from(JSON.stringify(binding)));
  const ciphertext = Buffer.concat([cipher.update(plaintext), cipher.final()]);
  return { keyId: key.id, iv, authTag: cipher.getAuthTag(), ciphertext };
}

export function unsealBound(
  key: VaultKey,
  binding: SealBinding,
  sealed: SealedCredentials,
): Buffer | undefined {
  if (sealed.iv.length !== IV_BYTES || sealed.authTag.length !== AUTH_TAG_BYTES) return undefined;
  const decipher = createDecipheriv('aes-256-gcm', key.key, sealed.iv, { authTagLength: AUTH_TAG_BYTES });
  decipher.setAAD(Buffer.from(JSON.stringify(binding)));
  decipher.setAuthTag(sealed.authTag);
  try {
    return Buffer.concat([decipher.update(sealed.ciphertext), decipher.final()]);
  } catch {
    return undefined;
  }
}
