// VAULT_KEY: one base64 key, or a comma-separated list for rotation (the first encrypts). Its own file
// because the errors must name keys by position only, never by value, and that is easiest to check
// alone.

export const VAULT_KEY_BYTES = 32;

/** Decodes VAULT_KEY into keys, or into error sentences that name keys by position only. */
export function parseVaultKeys(value: string): Buffer[] | { errors: string[] } {
  const parts = value.split(',').map((part) => part.trim());
  const errors: string[] = [];
  const keys: Buffer[] = [];
  parts.forEach((part, index) => {
    const which = parts.length === 1 ? 'the key' : `key ${index + 1} of ${parts.length}`;
    if (part === '') {
      errors.push(`${which} is empty`);
    } else if (!/^[A-Za-z0-9+/]+={0,2}$/.test(part) || part.length % 4 !== 0) {
      errors.push(`${which} is not valid base64`);
    } else {
      const key = Buffer.from(part, 'base64');
      if (key.length !== VAULT_KEY_BYTES) {
        errors.push(`${which} decodes to ${key.length} bytes, expected ${VAULT_KEY_BYTES}`);
      } else if (keys.some((earlier) => earlier.equals(key))) {
        errors.push(`${which} repeats an earlier key`);
      } else {
        keys.push(key);
      }
    }
  });
  return errors.length > 0 ? { errors } : keys;
}
