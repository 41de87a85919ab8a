// Whose each machine is, as the bot recorded it: the rows behind the owner rule on v1, where
// Paperspace names no owner (domain/machine-owner.ts reads them; never this file's callers alone).
// A create records its owner; a claim takes a machine nobody owns yet, atomically, so two people
// clicking "This is mine" together cannot both win; an assignment replaces whatever was there.
import { placeholders, type SqlClient, type SqlValue } from './sql-client.js';

/** How the owner came to be recorded, the strongest first. */
export type RecordedBasis = 'requested' | 'created' | 'claimed' | 'assigned';

export interface RecordedOwner {
  machineId: string;
  /** The owner's Slack user id in the workspace. */
  userId: string;
  /** Their Paperspace user, when their key was linked as it was recorded. */
  paperspaceUserId: string | null;
  basis: RecordedBasis;
  /** Who recorded it: the creator, the approver, the claimer or the administrator who assigned it. */
  setBy: string;
  setAt: number;
}

type ClaimResult = { claimed: true } | { claimed: false; owner: RecordedOwner };

export interface MachineOwnerRepository {
  /** The recorded owners of those machines of the workspace that have one. */
  ownersOf(teamId: string, machineIds: readonly string[]): Promise<Map<string, RecordedOwner>>;
  /** Records the owner, replacing an earlier one (a create, an approved request, an assignment). */
  record(teamId: string, owner: RecordedOwner): Promise<void>;
  /** Records the owner only if the machine has none yet; otherwise answers who has it. */
  claim(teamId: string, owner: RecordedOwner): Promise<ClaimResult>;
  /** Forgets a destroyed machine's owner. */
  forget(teamId: string, machineId: string): Promise<void>;
}

type OwnerRow = {
  machine_id: string;
  owner_user_id: string;
  owner_paperspace_user_id: string | null;
  basis: RecordedBasis;
  set_by: string;
  set_at: number | string;
};

const COLUMNS = 'machine_id, owner_user_id, owner_paperspace_user_id, basis, set_by, set_at';

function ownerOfRow(row: OwnerRow): RecordedOwner {
  return {
    machineId: row.machine_id,
    userId: row.owner_user_id,
    paperspaceUserId: row.owner_paperspace_user_id,
    basis: row.basis,
    setBy: row.set_by,
    setAt: Number(row.set_at),
  };
}

function valuesOf(teamId: string, owner: RecordedOwner): SqlValue[] {
  return [
    teamId,
    owner.machineId,
    owner.userId,
    owner.paperspaceUserId,
    owner.basis,
    owner.setBy,
    owner.setAt,
  ];
}

/** Lookups of more machines than this go in several statements (SQLite's bound-parameter limit). */
const IDS_PER_STATEMENT = 500;

export function createMachineOwnerRepository(db: SqlClient): MachineOwnerRepository {
  const claim: MachineOwnerRepository['claim'] = async (teamId, owner) => {
    const won = await db.get<{ machine_id: string }>(
      `INSERT INTO machine_owners (slack_team_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
       ON CONFLICT (slack_team_id, machine_id) DO NOTHING
       RETURNING machine_id`,
      valuesOf(teamId, owner),
    );
    if (won !== undefined) return { claimed: true };
    const row = await db.get<OwnerRow>(
      `SELECT ${COLUMNS} FROM machine_owners WHERE slack_team_id = ? AND machine_id = ?`,
      [teamId, owner.machineId],
    );
    // Forgotten between the two statements (the machine was destroyed): nobody holds it now.
    if (row === undefined) return claim(teamId, owner);
    return { claimed: false, owner: ownerOfRow(row) };
  };

  return {
    claim,

    async ownersOf(teamId, machineIds) {
      const owners = new Map<string, RecordedOwner>();
      const unique = [...new Set(machineIds)];
      for (let at = 0; at < unique.length; at += IDS_PER_STATEMENT) {
        const ids = unique.slice(at, at + IDS_PER_STATEMENT);
        const rows = await db.all<OwnerRow>(
          `SELECT ${COLUMNS} FROM machine_owners
           WHERE slack_team_id = ? AND machine_id IN (${placeholders(ids.length)})`,
          [teamId, ...ids],
        );
        for (const row of rows) owners.set(row.machine_id, ownerOfRow(row));
      }
      return owners;
    },

    async record(teamId, owner) {
      await db.run(
        `INSERT INTO machine_owners (slack_team_id, ${COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?)
         ON CONFLICT (slack_team_id, machine_id) DO UPDATE SET
           owner_user_id = excluded.owner_user_id,
           owner_paperspace_user_id = excluded.owner_paperspace_user_id,
           basis = excluded.basis, set_by = excluded.set_by, set_at = excluded.set_at`,
        valuesOf(teamId, owner),
      );
    },

    async forget(teamId, machineId) {
      await db.run('DELETE FROM machine_owners WHERE slack_team_id = ? AND machine_id = ?', [
        teamId,
        machineId,
      ]);
    },
  };
}
