// Which replica polls whom. The unit of a lease is a person, not a watch: one getMachines call with a
// person's key answers all of their watches and the cost guard's check of their machines, so two
// replicas splitting one person would both pay for that call. A person has a lease row while they have
// an active watch or a linked key (vault_entries), and loses it when they have neither.
// Every tick a replica renews its presence (scheduler_replicas), forgets replicas whose presence ran
// out, counts the live ones and holds its fair share of the people: ceil(people / replicas). A replica
// holding more than its share gives the excess back, so one that joins gets work within two ticks; one
// that dies stops renewing, and its presence and its leases run out together, after one lease period,
// when the others take its people over. For the people it holds it answers their active watches, by
// reference and by deadline, and the seal of each one's stored key (so the poller keeps an opened key
// only while it is current).
import type { SlackUser } from './slack-user.js';
import type { SqlClient } from './sql-client.js';
import type { WatchLease } from './watch-types.js';

/**
 * An active watch to poll this tick, by reference only. The poller reads each person's watches when
 * their machine list is in, so whole watches read at the start of a tick do not live through all of it
 * (and into the old generation, with every tick's).
 */
export interface PolledWatch {
  id: string;
  teamId: string;
  userId: string;
  machineId: string;
}

/** A person this replica holds, with the seal of their stored key (null when they linked none). */
export interface HeldPerson extends SlackUser {
  /**
   * Which key sealed their vault entry and with which IV (neither is secret): it changes whenever the
   * entry does (a new link, a reseal under a rotated VAULT_KEY) and is null once it is gone (logout,
   * purge), so the poller keeps an opened key in memory exactly as long as it is current.
   */
  keySeal: string | null;
}

export interface PollAssignment {
  /** The active watches of the people this replica holds, to poll this tick, by deadline. */
  watches: PolledWatch[];
  /** Every person this replica holds: those with active watches, and linked people without any. */
  held: HeldPerson[];
  /** How many people with active watches this replica holds. */
  people: number;
  /** People with active watches or a linked key, on every replica. */
  totalPeople: number;
  /** Live replicas, this one included. */
  replicas: number;
}

export interface WatchLeaseRepository {
  /**
   * Renews this replica's presence and its leases, takes or gives back people until it holds its fair
   * share, and returns the active watches of the people it holds. Two replicas never hold one person's
   * lease at the same time, so they never poll one person in the same tick.
   */
  claimPeople(lease: WatchLease): Promise<PollAssignment>;
  /**
   * Gives up every lease `owner` holds (a replica shutting down), so others take over at once; answers
   * how many people it held.
   */
  release(owner: string): Promise<number>;
  /**
   * The replica whose lease on `person` stands in the database (it may have run out, until another
   * replica takes it over), or null when nobody holds them: which replica polls a person's watches.
   */
  holderOf(person: SlackUser): Promise<string | null>;
}

// The people's rows a lease can be taken on: nobody holds it, or the holder's lease ran out.
const FREE = '(claimed_by IS NULL OR lease_until <= ?)';
const SAME_PERSON = 'p.slack_team_id = watches.slack_team_id AND p.slack_user_id = watches.slack_user_id';

export function createWatchLeaseRepository(db: SqlClient): WatchLeaseRepository {
  return {
    async claimPeople({ owner, now, leaseMs }) {
      const until = now + leaseMs;
      await db.run(
        `INSERT INTO scheduler_replicas (replica_id, alive_until) VALUES (?, ?)
         ON CONFLICT (replica_id) DO UPDATE SET alive_until = excluded.alive_until`,
        [owner, until],
      );
      await db.run('DELETE FROM scheduler_replicas WHERE alive_until <= ?', [now]);
      // A person appears here with their first active watch or their linked key, and leaves when they
      // have neither: the cost guard checks the machines of linked people without watches too, and
      // one lease per person keeps that check and the watches' poll on one replica (one list call).
      // A watch created after this statement waits for the next tick, as it did when watches were leased.
      await db.run(
        `INSERT INTO watch_poll_leases (slack_team_id, slack_user_id)
         SELECT slack_team_id, slack_user_id FROM (
           SELECT slack_team_id, slack_user_id FROM watches WHERE status = 'active'
           UNION SELECT slack_team_id, slack_user_id FROM vault_entries) AS people
         -- SQLite reads ON CONFLICT after a bare SELECT as a join constraint; a WHERE tells them apart.
         WHERE true
         ON CONFLICT (slack_team_id, slack_user_id) DO NOTHING`,
      );
      await db.run(
        `DELETE FROM watch_poll_leases WHERE NOT EXISTS (
           SELECT 1 FROM watches WHERE status = 'active'
             AND watches.slack_team_id = watch_poll_leases.slack_team_id
             AND watches.slack_user_id = watch_poll_leases.slack_user_id)
         AND NOT EXISTS (
           SELECT 1 FROM vault_entries AS v
           WHERE v.slack_team_id = watch_poll_leases.slack_team_id
             AND v.slack_user_id = watch_poll_leases.slack_user_id)`,
      );
      const counts = await db.get<{ replicas: number; people: number; held: number }>(
        `SELECT (SELECT COUNT(*) FROM scheduler_replicas WHERE alive_until > ?) AS replicas,
                (SELECT COUNT(*) FROM watch_poll_leases) AS people,
                (SELECT COUNT(*) FROM watch_poll_leases WHERE claimed_by = ? AND lease_until > ?) AS held`,
        [now, owner, now],
      );
      const replicas = Math.max(1, Number(counts?.replicas ?? 1));
      const totalPeople = Number(counts?.people ?? 0);
      const share = Math.ceil(totalPeople / replicas);
      let held = Number(counts?.held ?? 0);

      if (held > share) {
        const { changes } = await db.run(
          `UPDATE watch_poll_leases SET claimed_by = NULL, lease_until = NULL
           WHERE claimed_by = ? AND (slack_team_id, slack_user_id) IN (
             SELECT slack_team_id, slack_user_id FROM watch_poll_leases WHERE claimed_by = ?
             ORDER BY slack_team_id DESC, slack_user_id DESC LIMIT ?)`,
          [owner, owner, held - share],
        );
        held -= changes;
      }
      await db.run('UPDATE watch_poll_leases SET lease_until = ? WHERE claimed_by = ? AND lease_until > ?', [
        until,
        owner,
        now,
      ]);
      if (held < share) {
        if (db.dialect === 'postgres') {
          // Rows another replica is claiming right now are locked: SKIP LOCKED passes over them to the
          // next free ones instead of waiting for that replica's commit and then finding them taken.
          await db.run(
            `WITH free AS (
               SELECT slack_team_id, slack_user_id FROM watch_poll_leases WHERE ${FREE}
               ORDER BY slack_team_id, slack_user_id LIMIT ? FOR UPDATE SKIP LOCKED)
             UPDATE watch_poll_leases AS p SET claimed_by = ?, lease_until = ? FROM free
             WHERE p.slack_team_id = free.slack_team_id AND p.slack_user_id = free.slack_user_id`,
            [now, share - held, owner, until],
          );
        } else {
          // SQLite has one writer at a time, and each row's condition is checked again as it is
          // updated, so two replicas running this at once never both get the same person.
          await db.run(
            `UPDATE watch_poll_leases SET claimed_by = ?, lease_until = ?
             WHERE ${FREE} AND (slack_team_id, slack_user_id) IN (
               SELECT slack_team_id, slack_user_id FROM watch_poll_leases WHERE ${FREE}
               ORDER BY slack_team_id, slack_user_id LIMIT ?)`,
            [owner, until, now, now, share - held],
          );
        }
      }

      // An intent whose operation is not known to have gone out is not polled: a machine still off
      // would read as a start that never began. The recovery settles it (watches/intent-recovery.ts).
      const rows = await db.all<{
        id: string;
        slack_team_id: string;
        slack_user_id: string;
        machine_id: string;
      }>(
        `SELECT watches.id, watches.slack_team_id, watches.slack_user_id, watches.machine_id
         FROM watches JOIN watch_poll_leases AS p ON ${SAME_PERSON}
         WHERE p.claimed_by = ? AND p.lease_until > ? AND watches.status = 'active'
           AND watches.pending_since IS NULL
         ORDER BY watches.deadline_at, watches.id`,
        [owner, now],
      );
      const watches = rows.map((row) => ({
        id: row.id,
        teamId: row.slack_team_id,
        userId: row.slack_user_id,
        machineId: row.machine_id,
      }));
      const heldRows = await db.all<{
        slack_team_id: string;
        slack_user_id: string;
        key_id: string | null;
        iv: Buffer | null;
      }>(
        `SELECT p.slack_team_id, p.slack_user_id, v.key_id, v.iv FROM watch_poll_leases AS p
         LEFT JOIN vault_entries AS v
           ON v.slack_team_id = p.slack_team_id AND v.slack_user_id = p.slack_user_id
         WHERE p.claimed_by = ? AND p.lease_until > ?
         ORDER BY p.slack_team_id, p.slack_user_id`,
        [owner, now],
      );
      const heldPeople = heldRows.map((row) => ({
        teamId: row.slack_team_id,
        userId: row.slack_user_id,
        keySeal: row.key_id === null || row.iv === null ? null : `${row.key_id}:${row.iv.toString('base64')}`,
      }));
      const people = new Set(watches.map((watch) => `${watch.teamId}/${watch.userId}`)).size;
      return { watches, held: heldPeople, people, totalPeople, replicas };
    },

    async release(owner) {
      await db.run('DELETE FROM scheduler_replicas WHERE replica_id = ?', [owner]);
      const { changes } = await db.run(
        'UPDATE watch_poll_leases SET claimed_by = NULL, lease_until = NULL WHERE claimed_by = ?',
        [owner],
      );
      return changes;
    },

    async holderOf(person) {
      const row = await db.get<{ claimed_by: string | null }>(
        'SELECT claimed_by FROM watch_poll_leases WHERE slack_team_id = ? AND slack_user_id = ?',
        [person.teamId, person.userId],
      );
      return row?.claimed_by ?? null;
    },
  };
}
