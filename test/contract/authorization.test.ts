// The contract's authorization rules through the real client: the client cannot know roles, so it
// sends; the emulator refuses; the client turns the refusal into a typed error a person can read,
// and nothing changes.
import { describe, expect, it } from 'vitest';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { PaperspaceAuthenticationError, PaperspacePermissionError } from '../../src/paperspace/errors.js';
import { DEMO_SECRETS, DEMO_USERS, rejectionOf, startContractWorld, TRANSITION_MS } from './harness.js';

const MAYA_BUILD = 'psorb002'; // Maya's, off
const SAM_DESKTOP = 'psorb003'; // Sam's, ready

function expectNoSecrets(error: Error) {
  for (const secret of DEMO_SECRETS) expect(error.message).not.toContain(secret);
}

describe('create machine: account administrators only', () => {
  it('refuses a team member with PaperspacePermissionError, creating nothing', async () => {
    const world = await startContractWorld();
    const before = world.state.machines().length;
    const error = await rejectionOf(
      world.sam.machines.create({
        region: 'East Coast (NY2)',
        machineType: 'C5',
        size: 50,
        billingType: 'hourly',
        machineName: 'sam-wants-one',
        templateId: 't04azgph',
        teamId: 'te1orbit',
        userId: 'u1sam',
      }),
    );
    expect(error).toBeInstanceOf(PaperspacePermissionError);
    expect(error.message).toBe(
      'Paperspace does not allow your account to create machine sam-wants-one: ' +
        'Only account administrators can create machines.',
    );
    expectNoSecrets(error);
    expect(world.state.machines()).toHaveLength(before);
  });
});

describe('start, stop, restart: the owner only', () => {
  it.each(['start', 'stop', 'restart'] as const)(
    'refuses %s by a team member on the administrator’s machine',
    async (verb) => {
      const world = await startContractWorld();
      const before = world.state.machine(MAYA_BUILD);
      const error = await rejectionOf(world.sam.machines[verb](MAYA_BUILD));
      expect(error).toBeInstanceOf(PaperspacePermissionError);
      expect(error.message).toBe(
        `Paperspace does not allow your account to ${verb} this machine: ` +
          `Only the machine's owner can ${verb} it.`,
      );
      world.clock.advance(TRANSITION_MS);
      expect(world.state.machine(MAYA_BUILD)?.events).toEqual(before?.events);
    },
  );

  it('refuses a team administrator starting or stopping a member’s machine: owning is not managing', async () => {
    const world = await startContractWorld();
    expect(await rejectionOf(world.maya.machines.stop(SAM_DESKTOP))).toBeInstanceOf(
      PaperspacePermissionError,
    );
    expect((await world.sam.machines.show(SAM_DESKTOP)).state).toBe('ready');
  });
});

describe('destroy: the owner, or the team administrator', () => {
  it('refuses a team member destroying the administrator’s machine, which stays', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(world.sam.machines.destroy(MAYA_BUILD));
    expect(error).toBeInstanceOf(PaperspacePermissionError);
    expect(error.message).toBe(
      'Paperspace does not allow your account to destroy this machine: ' +
        "Only the machine's owner or an administrator of its team can destroy it.",
    );
    expect((await world.maya.machines.show(MAYA_BUILD)).name).toBe('team-build');
  });
});

describe('shared drives: team administrators only', () => {
  const operations = {
    list: (client: PaperspaceClient) => client.sharedDrives.list(),
    create: (client: PaperspaceClient) =>
      client.sharedDrives.create({
        name: 'not-mine',
        sizeGiB: 10,
        region: 'West Coast (CA1)',
        networkId: 'norbca1',
      }),
    delete: (client: PaperspaceClient) => client.sharedDrives.delete('sdorb001'),
  };

  it.each(Object.entries(operations))(
    'refuses %s by a team member with PaperspacePermissionError, changing nothing',
    async (operation, call) => {
      const world = await startContractWorld();
      const error = await rejectionOf(call(world.sam));
      expect(error).toBeInstanceOf(PaperspacePermissionError);
      expect(error.message).toMatch(
        new RegExp(`^Paperspace does not allow your account to ${operation} shared drive`),
      );
      expect(error.message).toMatch(/: Only team administrators can manage shared drives\.$/);
      expectNoSecrets(error);
      expect(world.state.drives().map((drive) => drive.name)).toEqual(['datasets']);
    },
  );

  it('refuses an individual account, which has no team to hold drives', async () => {
    const world = await startContractWorld();
    expect(await rejectionOf(world.ada.sharedDrives.list())).toBeInstanceOf(PaperspacePermissionError);
  });
});

describe('authentication', () => {
  it('answers an unknown API key with PaperspaceAuthenticationError that shows no key', async () => {
    const world = await startContractWorld();
    const revoked = 'demo-key-revoked-0000';
    const error = await rejectionOf(world.client({ apiKey: revoked }).machines.list());
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    expect(error.message).toBe(
      'Paperspace rejected the API key while trying to list machines. Link a new API key with /ps login.',
    );
    expect(error).toMatchObject({ status: 401, bodyStatus: 401, serverMessage: 'Invalid API token' });
    expect(JSON.stringify(error)).not.toContain(revoked);
    expect(error.message).not.toContain(revoked);
  });

  it('does not take an access token where the API key belongs', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(world.client({ apiKey: DEMO_USERS.maya.accessToken }).machines.list());
    expect(error).toBeInstanceOf(PaperspaceAuthenticationError);
    expectNoSecrets(error);
  });
});
