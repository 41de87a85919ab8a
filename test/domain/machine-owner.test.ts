import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { isOwnedBy, machineOwners, ownerKey, ownerPeople } from '../../src/domain/machine-owner.js';
import { type Machine, machineSchema } from '../../src/paperspace/schemas.js';
import type { Store } from '../../src/store/store.js';
import { machineFixture } from '../paperspace/fake-paperspace.js';
import { sqliteFile } from '../store/store-factories.js';

const TEAM = 'T0FAKE';
const maya = { userId: 'U0MAYA', paperspaceUserId: 'u1maya' };
const sam = { userId: 'U0SAM', paperspaceUserId: 'u1sam' };

/** A v1 machine names no owner; the legacy API's names one in `userId`. */
function v1Machine(id: string): Machine {
  const { userId: _none, ...rest } = machineFixture({ id, name: id });
  return machineSchema.parse(rest);
}
function legacyMachine(id: string, userId: string): Machine {
  return machineSchema.parse(machineFixture({ id, name: id, userId }));
}

describe('whose a machine is', () => {
  let store: Store;
  let cleanup: () => Promise<void>;
  beforeEach(async () => {
    const database = await sqliteFile.create();
    store = database.store;
    cleanup = database.cleanup;
  });
  afterEach(() => cleanup());

  it('is the person Paperspace names on the legacy API, whatever the bot recorded', async () => {
    const machine = legacyMachine('ps-legacy', 'u1maya');
    await store.machineOwners.record(TEAM, {
      machineId: 'ps-legacy',
      userId: sam.userId,
      paperspaceUserId: sam.paperspaceUserId,
      basis: 'claimed',
      setBy: sam.userId,
      setAt: 1,
    });
    const owner = (await machineOwners(store, TEAM, [machine]))(machine);
    expect(owner).toEqual({ kind: 'paperspace', paperspaceUserId: 'u1maya' });
    expect(isOwnedBy(owner, maya)).toBe(true);
    expect(isOwnedBy(owner, sam)).toBe(false);
  });

  it('is whom the bot recorded on v1, and nobody when it recorded no one', async () => {
    const [made, unknown] = [v1Machine('ps-made'), v1Machine('ps-found')];
    await store.machineOwners.record(TEAM, {
      machineId: 'ps-made',
      userId: sam.userId,
      paperspaceUserId: sam.paperspaceUserId,
      basis: 'requested',
      setBy: maya.userId,
      setAt: 1,
    });
    const ownerOf = await machineOwners(store, TEAM, [made, unknown]);
    expect(isOwnedBy(ownerOf(made), sam)).toBe(true);
    // The administrator who approved it, and saw it first, does not own it.
    expect(isOwnedBy(ownerOf(made), maya)).toBe(false);
    expect(ownerOf(unknown)).toEqual({ kind: 'none' });
    expect(isOwnedBy(ownerOf(unknown), maya)).toBe(false);
    expect(isOwnedBy(ownerOf(unknown), sam)).toBe(false);
  });

  it('reads the record of one workspace only', async () => {
    const machine = v1Machine('ps-made');
    await store.machineOwners.record('T0OTHER', {
      machineId: 'ps-made',
      userId: sam.userId,
      paperspaceUserId: sam.paperspaceUserId,
      basis: 'created',
      setBy: sam.userId,
      setAt: 1,
    });
    expect((await machineOwners(store, TEAM, [machine]))(machine)).toEqual({ kind: 'none' });
  });

  it("makes an account's only user the owner of what nobody recorded", async () => {
    const machine = v1Machine('ps-solo');
    const owner = (await machineOwners(store, TEAM, [machine], { soleUserId: 'u1ada' }))(machine);
    expect(isOwnedBy(owner, { userId: 'U0ADA', paperspaceUserId: 'u1ada' })).toBe(true);
  });

  it('keeps one claim when two people claim together, and lets an assignment replace it', async () => {
    const machine = v1Machine('ps-found');
    const claim = (person: typeof sam) =>
      store.machineOwners.claim(TEAM, {
        machineId: machine.id,
        userId: person.userId,
        paperspaceUserId: person.paperspaceUserId,
        basis: 'claimed',
        setBy: person.userId,
        setAt: 1,
      });
    const results = await Promise.all([claim(sam), claim(maya)]);
    expect(results.filter((result) => result.claimed)).toHaveLength(1);
    const winner = (await machineOwners(store, TEAM, [machine]))(machine);
    await store.machineOwners.record(TEAM, {
      machineId: machine.id,
      userId: 'U0LEE',
      paperspaceUserId: null,
      basis: 'assigned',
      setBy: maya.userId,
      setAt: 2,
    });
    const assigned = (await machineOwners(store, TEAM, [machine]))(machine);
    expect(ownerKey(assigned)).not.toBe(ownerKey(winner));
    expect(isOwnedBy(assigned, { userId: 'U0LEE' })).toBe(true);
    expect(await ownerPeople(store, TEAM, assigned)).toEqual([{ teamId: TEAM, userId: 'U0LEE' }]);
  });
});
