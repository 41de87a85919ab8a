// The Slack requests already served, by the SHA-256 of their signature, so that a replayed request is
// refused by whichever replica it reaches. A row is needed only while Slack's timestamp check would
// still let the request in (5 minutes), and is pruned afterwards.
import type { SqlClient } from './sql-client.js';

export interface RequestReplayRepository {
  /**
   * Records `signatureHash` until `expiresAt`. True for exactly one caller across every replica;
   * false when it was recorded before (a replay).
   */
  claim(signatureHash: string, expiresAt: number): Promise<boolean>;
  /** Forgets the hashes that expired before `now`; returns how many. */
  prune(now: number): Promise<number>;
}

export function createRequestReplayRepository(db: SqlClient): RequestReplayRepository {
  return {
    async claim(signatureHash, expiresAt) {
      const { changes } = await db.run(
        `INSERT INTO slack_request_replays (signature_hash, expires_at) VALUES (?, ?)
         ON CONFLICT (signature_hash) DO NOTHING`,
        [signatureHash, expiresAt],
      );
      return changes === 1;
    },
    async prune(now) {
      const { changes } = await db.run('DELETE FROM slack_request_replays WHERE expires_at < ?', [now]);
      return changes;
    },
  };
}
