// The moment the next chat.postMessage may go in a channel, shared by every replica of a deployment.
// Slack's pace (about one message a second per channel, after a small burst) counts the app's posts,
// whichever replica sends them: two replicas each keeping it alone post twice as fast, and Slack
// answers the excess with 429s. Before a post, its replica claims the channel's next slot here; one
// upsert both reads and moves it, atomic on SQLite and PostgreSQL alike, so two replicas claiming at
// once get slots a spacing apart. Times are the replicas' own clocks: NTP keeps them within
// milliseconds, and Slack's burst allowance covers that much.
import type { SqlClient } from './sql-client.js';

export interface ChannelPostSlotRepository {
  /**
   * Claims the next post in `channel` at `at` or later, each post `spacingMs` after the one claimed
   * before it (by any replica); answers the moment this post may go (`at` when the channel is idle).
   */
  claim(channel: string, at: number, spacingMs: number): Promise<number>;
  /** Deletes the slots that ended before `at` (an idle channel needs no row); how many. */
  pruneBefore(at: number): Promise<number>;
}

export function createChannelPostSlotRepository(db: SqlClient): ChannelPostSlotRepository {
  return {
    async claim(channel, at, spacingMs) {
      // next_at is when the post after this one may go: the later of the channel's free moment and
      // `at`, plus the spacing; this post's moment is a spacing before it.
      const row = await db.get<{ next_at: number | string }>(
        `INSERT INTO channel_post_slots (channel, next_at) VALUES (?, ?)
           ON CONFLICT (channel) DO UPDATE SET next_at =
             CASE WHEN channel_post_slots.next_at > ? THEN channel_post_slots.next_at ELSE ? END + ?
           RETURNING next_at`,
        [channel, at + spacingMs, at, at, spacingMs],
      );
      if (row === undefined) throw new Error(`claiming a post slot in ${channel} returned no row`);
      return Number(row.next_at) - spacingMs;
    },
    async pruneBefore(at) {
      const { changes } = await db.run('DELETE FROM channel_post_slots WHERE next_at < ?', [at]);
      return changes;
    },
  };
}
