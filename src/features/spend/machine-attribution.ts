// Whose spend a machine is. The contract's API names each machine's owner (`userId`); v1 names none,
// so the bot says what it knows itself, the most certain first: the person it created the machine for
// (an approved request), the person who created it through the bot, then the team members Paperspace
// lists as its accessors. A machine none of these covers was not created through this bot, and the
// report says exactly that rather than that Paperspace did not report an owner.
import { linkedPeopleOf, ownerIdOf } from '../../domain/machine-people.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { approvedRequestIdIn } from '../approvals/approval-audit.js';

/**
 * How the people were found: Paperspace names the `owner` (or the account has no one else); the bot created it for the person who
 * `requested` it; the person `created` it through the bot; Paperspace lists them as its `accessors`;
 * or nothing says (`unknown`).
 */
type SpendBasis = 'owner' | 'requested' | 'created' | 'accessors' | 'unknown';

export interface SpendPerson {
  /** Their Paperspace user id, when known (a Slack person who never linked a key has none). */
  paperspaceUserId: string | undefined;
  /** Slack people who linked this Paperspace user (mentionable), oldest link first. */
  slackUsers: SlackUser[];
  /** The person as Paperspace's users list names them, when it has them. */
  paperspaceUser: User | undefined;
}

export interface Attribution {
  basis: SpendBasis;
  /** One person, except a machine several accessors share (none when `unknown`). */
  people: SpendPerson[];
  /** Machines with the same key are one line of the report. */
  key: string;
}

export interface AttributionContext {
  store: Pick<Store, 'vaultEntries' | 'audit' | 'approvals'>;
  client: PaperspaceClient;
  /** The Slack workspace whose audit trail and links are read. */
  teamId: string;
  users: readonly User[];
}

/** Audit records read per machine: its create is among the first things that happened to it. */
const AUDIT_RECORDS_READ = 50;

export async function attributeMachine(context: AttributionContext, machine: Machine): Promise<Attribution> {
  const ownerId = ownerIdOf(machine);
  if (ownerId !== undefined) return single('owner', await personOf(context, ownerId));
  // An individual account has one person, who owns every machine of it.
  const [onlyUser, ...others] = context.users;
  if (onlyUser !== undefined && others.length === 0)
    return single('owner', await personOf(context, onlyUser.id));
  const records = await context.store.audit.list({
    teamId: context.teamId,
    resourceId: machine.id,
    limit: AUDIT_RECORDS_READ,
  });
  const approved = records.find((record) => record.action === 'approval.create' && record.outcome === 'ok');
  const requestId = approvedRequestIdIn(approved?.message ?? null);
  const request = requestId === undefined ? undefined : await context.store.approvals.get(requestId);
  if (request && request.teamId === context.teamId) {
    return single('requested', await slackPersonOf(context, request.requesterId));
  }
  const created = records.find((record) => record.action === 'machine.create' && record.outcome === 'ok');
  if (created) return single('created', await slackPersonOf(context, created.userId));
  const accessorIds = await accessorsOf(context.client, machine.id);
  if (accessorIds.length === 0) return { basis: 'unknown', people: [], key: 'unknown' };
  const people = await Promise.all([...accessorIds].sort().map((id) => personOf(context, id)));
  // One accessor is that person, whose other machines share the line; several share one of their own.
  return { basis: 'accessors', people, key: people.map(keyOf).join('+') };
}

/** Whether the report's reader is among the machine's people (a member sees only those machines). */
export function isAttributedTo(
  attribution: Attribution,
  reader: { user: SlackUser; paperspaceUserId: string },
): boolean {
  return attribution.people.some(
    (person) =>
      person.paperspaceUserId === reader.paperspaceUserId ||
      person.slackUsers.some((slackUser) => slackUser.userId === reader.user.userId),
  );
}

function single(basis: SpendBasis, person: SpendPerson): Attribution {
  return { basis, people: [person], key: keyOf(person) };
}

/** One key per person whichever way they were found, so their machines add up on one line. */
function keyOf(person: SpendPerson): string {
  if (person.paperspaceUserId !== undefined) return `paperspace:${person.paperspaceUserId}`;
  return `slack:${person.slackUsers.map((user) => user.userId).join('+')}`;
}

async function personOf(context: AttributionContext, paperspaceUserId: string): Promise<SpendPerson> {
  return {
    paperspaceUserId,
    slackUsers: await linkedPeopleOf(context.store, context.teamId, paperspaceUserId),
    paperspaceUser: context.users.find((user) => user.id === paperspaceUserId),
  };
}

/** A Slack person the audit trail names, as a Paperspace user when their key is still linked. */
async function slackPersonOf(context: AttributionContext, slackUserId: string): Promise<SpendPerson> {
  const entries = await context.store.vaultEntries.list();
  const linked = entries.find((entry) => entry.teamId === context.teamId && entry.userId === slackUserId);
  if (linked === undefined) {
    return {
      paperspaceUserId: undefined,
      slackUsers: [{ teamId: context.teamId, userId: slackUserId }],
      paperspaceUser: undefined,
    };
  }
  return personOf(context, linked.account.userId);
}

/** The machine's accessors, when the API lists them (v1; the contract's names an owner instead). */
async function accessorsOf(client: PaperspaceClient, machineId: string): Promise<string[]> {
  return client.capabilities.listAccessors ? client.machines.accessors(machineId) : [];
}
