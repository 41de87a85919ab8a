// Whose a machine is: the one rule every feature asks (the Home and lists, cards and their buttons,
// unfurls, forgotten-machine alerts, reminders, spend and the digest, approvals), so no two of them
// can name different owners.
// - The legacy API names the owner itself (`userId`): that person, always.
// - v1 names nobody, so the bot says what it recorded itself: the person it created the machine for
//   (an approved request), whoever created it through the bot, or the person it was assigned to or
//   who claimed it (the latest of these wins: an administrator's reassignment replaces a create).
// - An account of one person (nobody else is listed) is that person's.
// - Otherwise the machine has no owner yet, and the team's administrators answer for it. Who happened
//   to see a machine, or whose key listed it, never makes anyone its owner.
import type { Machine } from '../paperspace/schemas.js';
import type { RecordedBasis } from '../store/machine-owners.js';
import type { SlackUser } from '../store/slack-user.js';
import type { Store } from '../store/store.js';

export type MachineOwner =
  /** Paperspace names the owner (the legacy API), or the account has no one else. */
  | { kind: 'paperspace'; paperspaceUserId: string }
  /** The bot recorded the owner, a person of this Slack workspace (v1). */
  | { kind: 'recorded'; userId: string; paperspaceUserId: string | null; basis: RecordedBasis }
  /** No owner yet: the team's administrators answer for it. */
  | { kind: 'none' };

export type OwnerOf = (machine: Machine) => MachineOwner;

/** A person as the rule compares them: their Slack user and, when linked, their Paperspace user. */
export interface OwnerCandidate {
  userId: string;
  paperspaceUserId?: string | undefined;
}

const NO_OWNER: MachineOwner = { kind: 'none' };

/**
 * The Paperspace id of the owner Paperspace itself names (the legacy API's `userId`). The contract's
 * machine lists no owner, but the API sends it and the schema passes it through; v1 sends none.
 */
export function paperspaceOwnerIdOf(machine: Machine): string | undefined {
  const owner: unknown = (machine as { userId?: unknown }).userId;
  return typeof owner === 'string' && owner !== '' ? owner : undefined;
}

/**
 * The owners of `machines` in Slack workspace `teamId`: one read of the recorded owners for all of
 * them. `soleUserId`: the account's only user, when the caller has listed the team and found one.
 */
export async function machineOwners(
  store: Pick<Store, 'machineOwners'>,
  teamId: string,
  machines: readonly Machine[],
  { soleUserId }: { soleUserId?: string | undefined } = {},
): Promise<OwnerOf> {
  const unnamed = machines.filter((machine) => paperspaceOwnerIdOf(machine) === undefined);
  const recorded =
    unnamed.length === 0
      ? new Map()
      : await store.machineOwners.ownersOf(
          teamId,
          unnamed.map((machine) => machine.id),
        );
  const ownerOf: OwnerOf = (machine) => {
    const named = paperspaceOwnerIdOf(machine);
    if (named !== undefined) return { kind: 'paperspace', paperspaceUserId: named };
    const owner = recorded.get(machine.id);
    if (owner === undefined) return NO_OWNER;
    return {
      kind: 'recorded',
      userId: owner.userId,
      paperspaceUserId: owner.paperspaceUserId,
      basis: owner.basis,
    };
  };
  return withSoleUser(ownerOf, soleUserId);
}

/**
 * The owners with an account's only user as the owner of what has none: for a caller that learns the
 * account is one person's only once it has seen a machine with no owner, without reading them again.
 */
export function withSoleUser(ownerOf: OwnerOf, soleUserId: string | undefined): OwnerOf {
  if (soleUserId === undefined) return ownerOf;
  return (machine) => {
    const owner = ownerOf(machine);
    return owner.kind === 'none' ? { kind: 'paperspace', paperspaceUserId: soleUserId } : owner;
  };
}

/** The owner of one machine. */
export async function machineOwner(
  store: Pick<Store, 'machineOwners'>,
  teamId: string,
  machine: Machine,
): Promise<MachineOwner> {
  return (await machineOwners(store, teamId, [machine]))(machine);
}

/** Whether `person` owns a machine whose owner is `owner`. Nobody owns a machine with no owner yet. */
export function isOwnedBy(owner: MachineOwner, person: OwnerCandidate): boolean {
  switch (owner.kind) {
    case 'paperspace':
      return person.paperspaceUserId !== undefined && owner.paperspaceUserId === person.paperspaceUserId;
    case 'recorded':
      return (
        owner.userId === person.userId ||
        (owner.paperspaceUserId !== null && owner.paperspaceUserId === person.paperspaceUserId)
      );
    case 'none':
      return false;
  }
}

/**
 * The Slack people of the workspace the owner is: the recorded person, or whoever linked the Paperspace
 * user Paperspace names (oldest link first; none when nobody did). None for a machine with no owner.
 */
export async function ownerPeople(
  store: Pick<Store, 'vaultEntries'>,
  teamId: string,
  owner: MachineOwner,
): Promise<SlackUser[]> {
  if (owner.kind === 'recorded') return [{ teamId, userId: owner.userId }];
  if (owner.kind === 'none') return [];
  const links = await store.vaultEntries.linkedIn(teamId, [owner.paperspaceUserId]);
  return links.map((link) => ({ teamId, userId: link.slackUserId }));
}

/** A key per owner, so one person's machines add up together whichever way they were found. */
export function ownerKey(owner: MachineOwner): string {
  switch (owner.kind) {
    case 'paperspace':
      return `paperspace:${owner.paperspaceUserId}`;
    case 'recorded':
      return owner.paperspaceUserId === null
        ? `slack:${owner.userId}`
        : `paperspace:${owner.paperspaceUserId}`;
    case 'none':
      return 'none';
  }
}
