import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { seal, toVaultKeys, unseal, vaultKeyId } from '../../src/vault/envelope.js';
import { VaultError } from '../../src/vault/vault-error.js';

const ADA = { teamId: 'T1', userId: 'U23' };
const [KEY] = toVaultKeys([randomBytes(32)]);
const SECRET = Buffer.from('{"apiKey":"0123456789abcdef"}');

describe('vault envelope', () => {
  it('opens what it sealed for the same user', () => {
    const sealed = seal(KEY, ADA, SECRET);
    expect(sealed.keyId).toBe(KEY.id);
    expect(sealed.iv).toHaveLength(12);
    expect(sealed.authTag).toHaveLength(16);
    expect(unseal(KEY, ADA, sealed)).toEqual(SECRET);
  });

  it('uses a fresh IV every time, so sealing the same secret twice gives different bytes', () => {
    const [first, second] = [seal(KEY, ADA, SECRET), seal(KEY, ADA, SECRET)];
    expect(first.iv.equals(second.iv)).toBe(false);
    expect(first.ciphertext.equals(second.ciphertext)).toBe(false);
  });

  it.each([
    ['another user', { teamId: 'T1', userId: 'U24' }],
    ['the same user id in another team', { teamId: 'T2', userId: 'U23' }],
    ['ids that only concatenate alike', { teamId: 'T1U', userId: '23' }],
  ])('refuses to open a record for %s', (_, other) => {
    expect(unseal(KEY, other, seal(KEY, ADA, SECRET))).toBeUndefined();
  });

  it('refuses an altered ciphertext, tag or IV, and a wrong key', () => {
    const sealed = seal(KEY, ADA, SECRET);
    const flipped = (bytes: Buffer) =>
      Buffer.from(bytes.map((byte, index) => (index === 0 ? byte ^ 1 : byte)));
    expect(unseal(KEY, ADA, { ...sealed, ciphertext: flipped(sealed.ciphertext) })).toBeUndefined();
    expect(unseal(KEY, ADA, { ...sealed, authTag: flipped(sealed.authTag) })).toBeUndefined();
    expect(unseal(KEY, ADA, { ...sealed, authTag: sealed.authTag.subarray(0, 4) })).toBeUndefined();
    expect(unseal(KEY, ADA, { ...sealed, iv: flipped(sealed.iv) })).toBeUndefined();
    const [otherKey] = toVaultKeys([randomBytes(32)]);
    expect(unseal(otherKey, ADA, sealed)).toBeUndefined();
  });

  it('names a key by 16 hex digits that stay the same and reveal nothing of the key', () => {
    const key = randomBytes(32);
    const id = vaultKeyId(key);
    expect(id).toMatch(/^[0-9a-f]{16}$/);
    expect(vaultKeyId(Buffer.from(key))).toBe(id);
    expect(vaultKeyId(randomBytes(32))).not.toBe(id);
    expect(key.toString('hex')).not.toContain(id);
  });

  it('accepts only 32-byte keys, at least one, none twice', () => {
    const key = randomBytes(32);
    expect(toVaultKeys([key, randomBytes(32)]).map((k) => k.id)[0]).toBe(vaultKeyId(key));
    for (const keys of [[], [randomBytes(16)], [key, Buffer.from(key)]]) {
      expect(() => toVaultKeys(keys)).toThrow(VaultError);
    }
  });
});
