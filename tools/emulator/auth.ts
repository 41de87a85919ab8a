// Who is calling, and what they may do. REST calls carry `X-Api-Key`; GraphQL calls carry
// `Authorization: Bearer <access token>`. A resource delegation's token (its accessTokenId) is
// accepted in either header by the REST machine reads, and only for the delegated machines.
import type { IncomingHttpHeaders } from 'node:http';
import { DELEGATION_LIFETIME_MS } from '../../src/paperspace/constants.js';
import { forbidden, notFound, unauthorized } from './errors.js';
import { settleMachine } from './lifecycle.js';
import type { DelegationRecord, MachineRecord, UserRecord } from './records.js';
import type { EmulatorCore } from './world.js';

export type Caller =
  | { readonly kind: 'user'; readonly user: UserRecord }
  | { readonly kind: 'delegation'; readonly delegation: DelegationRecord };

function header(headers: IncomingHttpHeaders, name: string): string | null {
  const value = headers[name];
  const text = Array.isArray(value) ? value[0] : value;
  return text?.trim() ? text.trim() : null;
}

export function bearerToken(headers: IncomingHttpHeaders): string | null {
  const match = /^Bearer\s+(\S+)$/i.exec(header(headers, 'authorization') ?? '');
  return match?.[1] ?? null;
}

export function apiKeyOf(headers: IncomingHttpHeaders): string | null {
  return header(headers, 'x-api-key');
}

/** The credential a request presents, whatever it is: the rate limiter counts requests per credential. */
export function credentialOf(headers: IncomingHttpHeaders): string | null {
  return apiKeyOf(headers) ?? bearerToken(headers);
}

export function isDelegationActive(delegation: DelegationRecord, now: number): boolean {
  return now < delegation.dtCreated + DELEGATION_LIFETIME_MS;
}

function delegationByToken(core: EmulatorCore, token: string): Caller | null {
  for (const delegation of core.world.delegations.values()) {
    if (delegation.accessTokenId !== token) continue;
    if (!isDelegationActive(delegation, core.now())) throw unauthorized('Access token expired');
    return { kind: 'delegation', delegation };
  }
  return null;
}

export function authenticateRest(core: EmulatorCore, headers: IncomingHttpHeaders): Caller {
  const apiKey = apiKeyOf(headers);
  if (apiKey !== null) {
    const user = core.world.users.withApiKey(apiKey);
    if (user) return { kind: 'user', user };
    const delegated = delegationByToken(core, apiKey);
    if (delegated) return delegated;
    throw unauthorized('Invalid API token');
  }
  const token = bearerToken(headers);
  const delegated = token === null ? null : delegationByToken(core, token);
  if (delegated) return delegated;
  throw unauthorized(token === null ? 'No API token given (send the X-Api-Key header)' : 'Invalid API token');
}

export function authenticateGraphql(core: EmulatorCore, headers: IncomingHttpHeaders): UserRecord {
  const token = bearerToken(headers);
  if (token === null) throw unauthorized('No access token given (send Authorization: Bearer <token>)');
  const user = core.world.users.withAccessToken(token);
  if (!user) throw unauthorized('Invalid access token');
  return user;
}

export function requireUser(caller: Caller): UserRecord {
  if (caller.kind === 'user') return caller.user;
  throw forbidden('A delegated access token only allows reading the delegated machines');
}

export function isTeamAdmin(core: EmulatorCore, user: UserRecord): boolean {
  return user.role === 'admin' && core.world.accounts.get(user.accountId)?.kind === 'team';
}

/** Own machines, the team's machines, machines shared with the user, or the delegated ones. */
function canSeeMachine(caller: Caller, machine: MachineRecord): boolean {
  if (caller.kind === 'delegation') return caller.delegation.machineIds.includes(machine.id);
  const { user } = caller;
  return (
    machine.accountId === user.accountId || machine.ownerId === user.id || machine.accessorIds.has(user.id)
  );
}

/**
 * Every machine the caller can see, in creation order (the order lists answer in), looked up through
 * the caller's own account, grants or delegation rather than by checking every machine in the world.
 */
export function visibleMachines(core: EmulatorCore, caller: Caller): MachineRecord[] {
  const candidates =
    caller.kind === 'delegation'
      ? core.world.machines.withIds(caller.delegation.machineIds)
      : core.world.machines.visibleTo(caller.user);
  return candidates.filter((machine) => canSeeMachine(caller, machine));
}

/** Destroy, update and access changes: the owner, or an administrator of the machine's team. */
export function canManageMachine(core: EmulatorCore, user: UserRecord, machine: MachineRecord): boolean {
  return machine.ownerId === user.id || (isTeamAdmin(core, user) && machine.accountId === user.accountId);
}

/** Start, stop and restart belong to the machine's owner alone, even for a team administrator. */
export function requireOwner(user: UserRecord, machine: MachineRecord, verb: string): void {
  if (machine.ownerId !== user.id) throw forbidden(`Only the machine's owner can ${verb} it`);
}

export function requireManager(
  core: EmulatorCore,
  user: UserRecord,
  machine: MachineRecord,
  verb: string,
): void {
  if (!canManageMachine(core, user, machine)) {
    throw forbidden(`Only the machine's owner or an administrator of its team can ${verb} it`);
  }
}

/**
 * The machine with this id as of now, if the caller may see it. Machines the caller may not see
 * answer 404 like missing ones, so ids of other accounts' machines cannot be probed.
 */
export function visibleMachine(core: EmulatorCore, caller: Caller, machineId: string): MachineRecord {
  const machine = core.world.machines.get(machineId);
  if (!machine || !canSeeMachine(caller, machine)) throw notFound(`Machine ${machineId} not found`);
  settleMachine(machine, core.now());
  return machine;
}
