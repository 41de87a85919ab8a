// The moment the next chat.postMessage may go in a channel, shared by every replica of a deployment.
// Slack's pace (about one message a second per channel, after a small burst) counts the app's posts,
// whichever replica sends them: two replicas each keeping it alone post twice as fast, and Slack
// answers the excess with 429s. Before a post, its replica claims the channel's next slot here; one
// upsert both reads and moves it, atomic on SQLite and PostgreSQL alike, so two replicas claiming at
// once get slots a spacing apart. Times are the replicas' own clocks: NTP keeps them within
// milliseconds, and Slack's burst allowance covers that much.
import { gatherStatements } from './gathered-statements.js';
import { placeholders, type SqlClient } from './sql-client.js';

export interface ChannelPostSlotRepository {
  /**
   * Claims the next post in `channel` at `at` or later, each post `spacingMs` after the one claimed
   * before it (by any replica); answers the moment this post may go (`at` when the channel is idle).
   */
  claim(channel: string, at: number, spacingMs: number): Promise<number>;
  /** Deletes the slots that ended before `at` (an idle channel needs no row); how many. */
  pruneBefore(at: number): Promise<number>;
}

/** Most claims one statement takes (gathered-statements.ts). */
const CLAIMS_PER_STATEMENT = 250;

interface Claim {
  channel: string;
  at: number;
  spacingMs: number;
}

/** The claims of one channel with one spacing, gathered together: one row move for all of them. */
interface MergedClaim extends Claim {
  members: Claim[];
}

/**
 * The gathered claims of each channel (and spacing) as one claim of all their slots at once: k posts
 * claimed together move the channel by k spacings, from the latest `at` among them (never sooner than
 * any of them asked), and take its slots in the order asked. Slack's budget for the app's card
 * updates is one such row, claimed by every update of a burst at once: one claim each, they were as
 * many statements one after another, and every channel's post claimed meanwhile waited behind them.
 */
function merged(claims: readonly Claim[]): MergedClaim[] {
  const byKey = new Map<string, MergedClaim>();
  for (const claim of claims) {
    const key = `${claim.spacingMs} ${claim.channel}`;
    const group = byKey.get(key);
    if (group === undefined) byKey.set(key, { ...claim, members: [claim] });
    else {
      group.at = Math.max(group.at, claim.at);
      group.members.push(claim);
    }
  }
  return [...byKey.values()].map((group) => ({
    ...group,
    spacingMs: group.spacingMs * group.members.length,
  }));
}

/**
 * Claims in rounds a statement can take: one upsert cannot move a row twice, so a channel claimed with
 * two spacings at once takes the second in the next round, and each round has one spacing.
 */
function rounds(claims: readonly MergedClaim[]): MergedClaim[][] {
  const result: { channels: Set<string>; spacingMs: number; claims: MergedClaim[] }[] = [];
  for (const claim of claims) {
    let round = result.find(
      (candidate) => candidate.spacingMs === claim.spacingMs && !candidate.channels.has(claim.channel),
    );
    if (round === undefined) {
      round = { channels: new Set(), spacingMs: claim.spacingMs, claims: [] };
      result.push(round);
    }
    round.channels.add(claim.channel);
    round.claims.push(claim);
  }
  return result.map((round) => round.claims);
}

export function createChannelPostSlotRepository(db: SqlClient): ChannelPostSlotRepository {
  // Posts claimed at once in many channels (a burst of completions) go in one upsert
  // (gathered-statements.ts).
  const claim = gatherStatements<Claim, number>(async (claims) => {
    const moments = new Map<Claim, number>();
    for (const round of rounds(merged(claims))) {
      const spacingMs = (round[0] as MergedClaim).spacingMs;
      // next_at is when the post after these may go: the later of the channel's free moment and
      // `at`, plus their spacings (excluded.next_at is `at` plus them); their first moment is that
      // many spacings before it.
      const rows = await db.all<{ channel: string; next_at: number | string }>(
        `INSERT INTO channel_post_slots (channel, next_at) VALUES ${placeholders(round.length, '(?, ?)')}
           ON CONFLICT (channel) DO UPDATE SET next_at =
             CASE WHEN channel_post_slots.next_at + ? > excluded.next_at
               THEN channel_post_slots.next_at + ? ELSE excluded.next_at END
           RETURNING channel, next_at`,
        [...round.flatMap((item) => [item.channel, item.at + spacingMs]), spacingMs, spacingMs],
      );
      const nextAt = new Map(rows.map((row) => [row.channel, Number(row.next_at)]));
      for (const group of round) {
        const next = nextAt.get(group.channel);
        if (next === undefined) throw new Error(`claiming a post slot in ${group.channel} returned no row`);
        const first = next - group.spacingMs;
        for (const [index, member] of group.members.entries()) {
          moments.set(member, first + index * member.spacingMs);
        }
      }
    }
    return claims.map((item) => moments.get(item) as number);
  }, CLAIMS_PER_STATEMENT);

  return {
    claim: (channel, at, spacingMs) => claim({ channel, at, spacingMs }),
    async pruneBefore(at) {
      const { changes } = await db.run('DELETE FROM channel_post_slots WHERE next_at < ?', [at]);
      return changes;
    },
  };
}
