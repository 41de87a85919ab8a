// The world's users and machines, indexed the way requests look them up. Every request finds its
// caller by key and most list the caller's machines; scanning the whole world for either made one
// call cost what 20,000 machines cost (64 ms in the completion bench), so a bench at 10,000 people
// measured the emulator instead of the bot. Both tables are Maps, so every other reader is unchanged.
import type { MachineRecord, UserRecord } from './records.js';

/** Adds `value` under `key` in a map of maps, keeping the inner map's insertion order. */
function addTo<V>(index: Map<string, Map<string, V>>, key: string, id: string, value: V): void {
  const entries = index.get(key) ?? new Map<string, V>();
  entries.set(id, value);
  index.set(key, entries);
}

function removeFrom<V>(index: Map<string, Map<string, V>>, key: string, id: string): void {
  const entries = index.get(key);
  entries?.delete(id);
  if (entries?.size === 0) index.delete(key);
}

/** Users by id, and by API key, access token and account. Users' keys and accounts never change. */
export class UserTable extends Map<string, UserRecord> {
  private readonly byApiKey = new Map<string, Map<string, UserRecord>>();
  private readonly byAccessToken = new Map<string, Map<string, UserRecord>>();
  private readonly byAccount = new Map<string, Map<string, UserRecord>>();

  override set(id: string, user: UserRecord): this {
    this.unindex(id);
    super.set(id, user);
    if (user.apiKey !== null) addTo(this.byApiKey, user.apiKey, id, user);
    if (user.accessToken !== null) addTo(this.byAccessToken, user.accessToken, id, user);
    addTo(this.byAccount, user.accountId, id, user);
    return this;
  }

  override delete(id: string): boolean {
    this.unindex(id);
    return super.delete(id);
  }

  override clear(): void {
    this.byApiKey.clear();
    this.byAccessToken.clear();
    this.byAccount.clear();
    super.clear();
  }

  /** The first user (in creation order) holding this API key, as a scan of the users would find. */
  withApiKey(apiKey: string): UserRecord | undefined {
    return this.byApiKey.get(apiKey)?.values().next().value;
  }

  withAccessToken(token: string): UserRecord | undefined {
    return this.byAccessToken.get(token)?.values().next().value;
  }

  /** The account's users in creation order. */
  ofAccount(accountId: string): UserRecord[] {
    return [...(this.byAccount.get(accountId)?.values() ?? [])];
  }

  private unindex(id: string): void {
    const user = super.get(id);
    if (!user) return;
    if (user.apiKey !== null) removeFrom(this.byApiKey, user.apiKey, id);
    if (user.accessToken !== null) removeFrom(this.byAccessToken, user.accessToken, id);
    removeFrom(this.byAccount, user.accountId, id);
  }
}

/**
 * A machine's explicit accessors. Grants change after the machine is created (setMachineAccess, v1
 * accessors, seeds), so the set itself tells its table, which keeps who can see which machine.
 */
class AccessorSet extends Set<string> {
  constructor(
    private readonly machineId: string,
    private readonly index: Map<string, Set<string>>,
  ) {
    super();
  }

  override add(userId: string): this {
    super.add(userId);
    const machineIds = this.index.get(userId) ?? new Set<string>();
    machineIds.add(this.machineId);
    this.index.set(userId, machineIds);
    return this;
  }

  override delete(userId: string): boolean {
    const machineIds = this.index.get(userId);
    machineIds?.delete(this.machineId);
    if (machineIds?.size === 0) this.index.delete(userId);
    return super.delete(userId);
  }

  override clear(): void {
    for (const userId of [...this]) this.delete(userId);
  }
}

/**
 * Machines by id in creation order (the order lists answer in), and by account, owner and accessor.
 * A machine's account, owner and id never change; its accessors come from `accessorSet`.
 */
export class MachineTable extends Map<string, MachineRecord> {
  private readonly byAccount = new Map<string, Map<string, MachineRecord>>();
  private readonly byOwner = new Map<string, Map<string, MachineRecord>>();
  private readonly byAccessor = new Map<string, Set<string>>();
  /** Each id's place in the creation order, to merge machines found through different indexes. */
  private readonly position = new Map<string, number>();
  private nextPosition = 0;

  override set(id: string, machine: MachineRecord): this {
    const known = super.get(id);
    if (known) this.unindex(known);
    else this.position.set(id, this.nextPosition++);
    super.set(id, machine);
    addTo(this.byAccount, machine.accountId, id, machine);
    addTo(this.byOwner, machine.ownerId, id, machine);
    return this;
  }

  override delete(id: string): boolean {
    const machine = super.get(id);
    if (!machine) return false;
    this.unindex(machine);
    // The record keeps its accessors (a caller may still hold it); only the index forgets them.
    for (const userId of machine.accessorIds) {
      const machineIds = this.byAccessor.get(userId);
      machineIds?.delete(id);
      if (machineIds?.size === 0) this.byAccessor.delete(userId);
    }
    this.position.delete(id);
    return super.delete(id);
  }

  override clear(): void {
    for (const id of [...this.keys()]) this.delete(id);
  }

  /** The accessor set a new machine record starts with. */
  accessorSet(machineId: string): Set<string> {
    return new AccessorSet(machineId, this.byAccessor);
  }

  /**
   * The machines of this account, owned by this user or shared with them, in creation order: every
   * machine canSeeMachine would let the user see, found without looking at anyone else's.
   */
  visibleTo(user: UserRecord): MachineRecord[] {
    const ofAccount = this.byAccount.get(user.accountId) ?? new Map<string, MachineRecord>();
    const elsewhere = new Map<string, MachineRecord>();
    for (const machine of this.byOwner.get(user.id)?.values() ?? []) {
      if (!ofAccount.has(machine.id)) elsewhere.set(machine.id, machine);
    }
    for (const id of this.byAccessor.get(user.id) ?? []) {
      const machine = super.get(id);
      if (machine?.accessorIds.has(user.id) && !ofAccount.has(id)) elsewhere.set(id, machine);
    }
    if (elsewhere.size === 0) return [...ofAccount.values()];
    return this.inCreationOrder([...ofAccount.values(), ...elsewhere.values()]);
  }

  /** The machines with these ids that exist, in creation order. */
  withIds(ids: readonly string[]): MachineRecord[] {
    const found = new Map<string, MachineRecord>();
    for (const id of ids) {
      const machine = super.get(id);
      if (machine) found.set(id, machine);
    }
    return this.inCreationOrder([...found.values()]);
  }

  private inCreationOrder(machines: MachineRecord[]): MachineRecord[] {
    const place = (machine: MachineRecord) => this.position.get(machine.id) ?? 0;
    return machines.sort((a, b) => place(a) - place(b));
  }

  private unindex(machine: MachineRecord): void {
    removeFrom(this.byAccount, machine.accountId, machine.id);
    removeFrom(this.byOwner, machine.ownerId, machine.id);
  }
}
