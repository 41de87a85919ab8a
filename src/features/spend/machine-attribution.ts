// Whose spend a machine is: its owner by the one owner rule (domain/machine-owner.ts), so /ps spend,
// the digest, the cards and the alerts can never name different people. A machine the rule gives no
// owner is counted as such ("no owner yet"), for a member to claim or an administrator to assign.
// A report reads the recorded owners and the Slack links once for all its machines, not per machine.
import { type MachineOwner, machineOwners, ownerKey } from '../../domain/machine-owner.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';

export interface SpendPerson {
  /** Their Paperspace user id, when known (a Slack person who never linked a key has none). */
  paperspaceUserId: string | undefined;
  /** Slack people who are this person here (mentionable), oldest link first. */
  slackUsers: SlackUser[];
  /** The person as Paperspace's users list names them, when it has them. */
  paperspaceUser: User | undefined;
}

export interface Attribution {
  owner: MachineOwner;
  /** The owner as people know them; none for a machine with no owner yet. */
  people: SpendPerson[];
  /** Machines with the same key are one line of the report. */
  key: string;
}

export interface AttributionContext {
  store: Pick<Store, 'machineOwners' | 'vaultEntries'>;
  /** The Slack workspace whose records and links are read. */
  teamId: string;
  /** The team's users as Paperspace lists them: names, and an account of one person is theirs. */
  users: readonly User[];
}

export type AttributionOf = (machine: Machine) => Attribution;

/** Whose each of `machines` is: one read of the recorded owners and one of the links, for all of them. */
export async function attributeMachines(
  context: AttributionContext,
  machines: readonly Machine[],
): Promise<AttributionOf> {
  const [onlyUser, ...others] = context.users;
  const soleUserId = onlyUser !== undefined && others.length === 0 ? onlyUser.id : undefined;
  const ownerOf = await machineOwners(context.store, context.teamId, machines, { soleUserId });
  const owners = new Map(machines.map((machine) => [machine.id, ownerOf(machine)]));
  const named = [...owners.values()].flatMap((owner) =>
    owner.kind === 'paperspace' ? [owner.paperspaceUserId] : [],
  );
  const links = await context.store.vaultEntries.linkedIn(context.teamId, [...new Set(named)]);
  // Looked up by id, and each owner's people built once: a team of 1,000 with 5,000 machines searched
  // the users and the links once per machine, seconds in which the bot answered nobody.
  const usersById = new Map(context.users.map((user) => [user.id, user]));
  const slackUsersOf = new Map<string, SlackUser[]>();
  for (const link of links) {
    const slackUsers = slackUsersOf.get(link.paperspaceUserId) ?? [];
    slackUsers.push({ teamId: context.teamId, userId: link.slackUserId });
    slackUsersOf.set(link.paperspaceUserId, slackUsers);
  }
  const userOf = (paperspaceUserId: string | null) =>
    paperspaceUserId === null ? undefined : usersById.get(paperspaceUserId);
  const peopleOf = (owner: MachineOwner): SpendPerson[] => {
    switch (owner.kind) {
      case 'paperspace':
        return [
          {
            paperspaceUserId: owner.paperspaceUserId,
            slackUsers: slackUsersOf.get(owner.paperspaceUserId) ?? [],
            paperspaceUser: userOf(owner.paperspaceUserId),
          },
        ];
      case 'recorded':
        return [
          {
            paperspaceUserId: owner.paperspaceUserId ?? undefined,
            slackUsers: [{ teamId: context.teamId, userId: owner.userId }],
            paperspaceUser: userOf(owner.paperspaceUserId),
          },
        ];
      case 'none':
        return [];
    }
  };
  const peopleByOwner = new Map<string, SpendPerson[]>();
  return (machine) => {
    const owner = owners.get(machine.id) ?? ownerOf(machine);
    const key = ownerKey(owner);
    // A recorded owner is also known by their Slack user, which the key leaves out when it names them.
    const peopleKey = owner.kind === 'recorded' ? `${key}\u0000${owner.userId}` : key;
    let people = peopleByOwner.get(peopleKey);
    if (people === undefined) {
      people = peopleOf(owner);
      peopleByOwner.set(peopleKey, people);
    }
    return { owner, people, key };
  };
}
