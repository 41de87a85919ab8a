// Resource delegations (REST) and shared drives (GraphQL with the Bearer access token) through the
// real client against the real emulator.
import { describe, expect, it } from 'vitest';
import { DELEGATION_LIFETIME_MS } from '../../src/paperspace/constants.js';
import {
  MissingAccessTokenError,
  PaperspaceAuthenticationError,
  PaperspaceBadRequestError,
  PaperspaceNotFoundError,
  PaperspacePermissionError,
} from '../../src/paperspace/errors.js';
import { DEMO_SECRETS, DEMO_USERS, rejectionOf, startContractWorld } from './harness.js';

describe('resource delegations', () => {
  it('creates an enabled delegation for chosen machines whose token reads those machines only', async () => {
    const world = await startContractWorld();
    const delegation = await world.ada.delegations.create({ machineIds: ['psada001'] });
    expect(delegation).toMatchObject({
      delegation: { machine: { ids: ['psada001'] } },
      isEnabled: true,
      dtCreated: new Date(world.clock.now()).toISOString(),
    });
    expect(typeof delegation.id).toBe('number');

    const guest = world.client({ apiKey: delegation.accessTokenId });
    expect((await guest.machines.list()).map((machine) => machine.id)).toEqual(['psada001']);
    expect((await guest.machines.show('psada001')).name).toBe('ada-workstation');
    expect(await rejectionOf(guest.machines.show('psada002'))).toBeInstanceOf(PaperspaceNotFoundError);
    expect(await rejectionOf(guest.machines.start('psada001'))).toBeInstanceOf(PaperspacePermissionError);
  });

  it('stops the delegated token working four hours after creation', async () => {
    const world = await startContractWorld();
    const { accessTokenId } = await world.ada.delegations.create({ machineIds: ['psada001'] });
    const guest = world.client({ apiKey: accessTokenId });
    world.clock.advance(DELEGATION_LIFETIME_MS);
    const error = await rejectionOf(guest.machines.show('psada001'));
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    expect(error.message).not.toContain(accessTokenId);
    expect(world.state.delegations()[0]?.isEnabled).toBe(false);
  });

  it('refuses to delegate a machine the caller cannot see, creating nothing', async () => {
    const world = await startContractWorld();
    expect(await rejectionOf(world.ada.delegations.create({ machineIds: ['psorb001'] }))).toBeInstanceOf(
      PaperspaceNotFoundError,
    );
    expect(world.state.delegations()).toEqual([]);
  });
});

describe('shared drives', () => {
  it('lists the team’s drives for a team administrator, with sizes in bytes and masked credentials', async () => {
    const world = await startContractWorld();
    expect(await world.maya.sharedDrives.list()).toEqual([
      {
        id: 'sdorb001',
        name: 'datasets',
        mountPoint: expect.stringMatching(/^\\\\10\.66\.1\.\d+\\sdorb001$/),
        size: 500 * 1024 ** 3,
        username: expect.stringMatching(/^\*+$/),
        password: expect.stringMatching(/^\*+$/),
        region: { name: 'West Coast (CA1)' },
      },
    ]);
  });

  it('lists only the first n drives when asked for n', async () => {
    const world = await startContractWorld();
    await world.maya.sharedDrives.create({
      name: 'scratch',
      sizeGiB: 50,
      region: 'West Coast (CA1)',
      networkId: 'norbca1',
    });
    expect(await world.maya.sharedDrives.list()).toHaveLength(2);
    expect((await world.maya.sharedDrives.list({ first: 1 })).map((drive) => drive.name)).toEqual([
      'datasets',
    ]);
  });

  it('creates a drive of the given GiB on a team network of its region, then deletes it', async () => {
    const world = await startContractWorld();
    const freeBefore = world.state.freeAddresses('norbny2');
    const created = await world.maya.sharedDrives.create({
      name: 'renders',
      sizeGiB: 200,
      region: 'East Coast (NY2)',
      networkId: 'norbny2',
    });
    expect(created).toEqual({ id: expect.any(String), name: 'renders' });
    const listed = await world.maya.sharedDrives.list();
    expect(listed.find((drive) => drive.id === created.id)).toMatchObject({
      size: 200 * 1024 ** 3,
      region: { name: 'East Coast (NY2)' },
    });
    expect(world.state.freeAddresses('norbny2')).toBe(freeBefore - 1);

    expect(await world.maya.sharedDrives.delete(created.id)).toEqual({ id: created.id });
    expect((await world.maya.sharedDrives.list()).map((drive) => drive.id)).toEqual(['sdorb001']);
    expect(world.state.freeAddresses('norbny2')).toBe(freeBefore);
  });

  it('refuses a drive on a network of another region (PaperspaceBadRequestError naming the network)', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(
      world.maya.sharedDrives.create({
        name: 'misplaced',
        sizeGiB: 10,
        region: 'Europe (AMS1)',
        networkId: 'norbny2',
      }),
    );
    expect(error).toBeInstanceOf(PaperspaceBadRequestError);
    expect(error.message).toBe(
      'Paperspace rejected the request to create shared drive misplaced: networkId: network norbny2 is ' +
        'in East Coast (NY2), not Europe (AMS1). Check the values and try again.',
    );
    expect(world.state.drives()).toHaveLength(1);
  });

  it('answers deleting an unknown drive with PaperspaceNotFoundError', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(world.maya.sharedDrives.delete('sd-nope'));
    expect(error).toBeInstanceOf(PaperspaceNotFoundError);
    expect(error.message).toMatch(/shared drive with id "sd-nope"/);
  });

  it('sends the Bearer access token, so a client without one is told to link one, sending nothing', async () => {
    const world = await startContractWorld();
    const keyOnly = world.client({ apiKey: DEMO_USERS.maya.apiKey });
    const mark = world.mark();
    const error = await rejectionOf(keyOnly.sharedDrives.list());
    expect(error).toBeInstanceOf(MissingAccessTokenError);
    expect(world.requestsSince(mark)).toEqual([]);
  });

  it('answers a wrong access token with PaperspaceAuthenticationError that shows no token', async () => {
    const world = await startContractWorld();
    const wrong = world.client({ apiKey: DEMO_USERS.maya.apiKey, accessToken: 'demo-token-revoked-0000' });
    const error = await rejectionOf(wrong.sharedDrives.list());
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    expect(error.message).toBe(
      'Paperspace rejected the access token while trying to list shared drives. ' +
        'Link a new access token with /ps login.',
    );
    for (const secret of [...DEMO_SECRETS, 'demo-token-revoked-0000'])
      expect(error.message).not.toContain(secret);
  });
});
