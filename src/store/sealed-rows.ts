// Sealed credentials kept in a row (a person's key in the vault, a workspace's Slack installation):
// the vault's key rotation seals them again under a new key, and must not overwrite a link or an
// install made while it was reading the old row.
import type { SqlClient, SqlValue } from './sql-client.js';

/** AES-256-GCM output as stored: which key sealed it, the IV, the auth tag and the ciphertext. */
export interface SealedCredentials {
  keyId: string;
  iv: Buffer;
  authTag: Buffer;
  ciphertext: Buffer;
}

/**
 * Replaces the row's sealed credentials only while they are still `expected` (same key id and IV).
 * `row` names the row by its key columns (the caller's constants, never input) and their values.
 * True if it replaced them.
 */
export async function resealRow(
  db: SqlClient,
  table: string,
  row: Record<string, SqlValue>,
  expected: SealedCredentials,
  next: SealedCredentials,
  at: number,
): Promise<boolean> {
  const keyColumns = Object.keys(row).map((column) => `${column} = ?`);
  const { changes } = await db.run(
    `UPDATE ${table} SET key_id = ?, iv = ?, auth_tag = ?, ciphertext = ?, updated_at = ?
     WHERE ${keyColumns.join(' AND ')} AND key_id = ? AND iv = ?`,
    [
      next.keyId,
      next.iv,
      next.authTag,
      next.ciphertext,
      at,
      ...Object.values(row),
      expected.keyId,
      expected.iv,
    ],
  );
  return changes === 1;
}
