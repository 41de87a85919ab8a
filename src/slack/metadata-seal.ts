// An HMAC over what the bot itself puts into a modal's private_metadata (the channel, thread and card
// to answer in, the response_url, the machine). Slack hands that text back in the submission, so a
// request carrying forged metadata, even correctly signed, could make the bot edit any message or post
// in any channel with its own token. The seal proves the bot wrote the text.
//
// The key is derived from VAULT_KEY (KeyVault.derivedKeys), not from SLACK_SIGNING_SECRET: whoever can
// sign requests holds the signing secret, so a seal keyed by it would stop no one who can forge a
// request, and Socket Mode has no signing secret at all. VAULT_KEY exists in both modes and never
// leaves the bot. Every configured key opens a seal and the first seals, so a key rotation leaves the
// modals already open working.
import { createHmac, timingSafeEqual } from 'node:crypto';

export interface MetadataSeal {
  /** `payload` prefixed with its MAC. */
  seal(payload: string): string;
  /** The payload of a sealed text, or undefined when it was not sealed by this bot's keys. */
  open(sealed: string): string | undefined;
}

/** The purpose the vault derives the seal's keys for. */
export const METADATA_SEAL_PURPOSE = 'slack private_metadata';

/** base64url of a SHA-256 MAC, and the '.' after it: what sealing adds to the metadata's length. */
const MAC_CHARS = 43;
export const SEAL_OVERHEAD_CHARS = MAC_CHARS + 1;

export function createMetadataSeal(keys: readonly Buffer[]): MetadataSeal {
  const [sealingKey] = keys;
  if (sealingKey === undefined) throw new Error('createMetadataSeal: at least one key is needed');
  const mac = (key: Buffer, payload: string) => createHmac('sha256', key).update(payload).digest();
  return {
    seal: (payload) => `${mac(sealingKey, payload).toString('base64url')}.${payload}`,
    open(sealed) {
      const dot = sealed.indexOf('.');
      if (dot !== MAC_CHARS) return undefined;
      const given = Buffer.from(sealed.slice(0, dot), 'base64url');
      const payload = sealed.slice(dot + 1);
      const genuine = keys.some((key) => {
        const expected = mac(key, payload);
        return given.length === expected.length && timingSafeEqual(given, expected);
      });
      return genuine ? payload : undefined;
    },
  };
}
