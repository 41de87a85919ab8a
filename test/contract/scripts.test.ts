// Startup scripts through the real client against the real emulator: create from text and from a
// file, list with filters, show with machines, read the text, destroy.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PaperspaceConflictError, PaperspaceNotFoundError } from '../../src/paperspace/errors.js';
import { rejectionOf, startContractWorld, TRANSITION_MS } from './harness.js';

let directory: string | undefined;
afterEach(async () => {
  if (directory) await rm(directory, { recursive: true, force: true });
  directory = undefined;
});

describe('creating scripts', () => {
  it('creates a team script from text, enabled and run at every boot by default', async () => {
    const world = await startContractWorld();
    const script = await world.maya.scripts.create({
      scriptName: 'warm-caches',
      scriptText: '#!/bin/bash\necho warming\n',
      scriptDescription: 'Fills the package cache',
    });
    expect(script).toMatchObject({
      name: 'warm-caches',
      description: 'Fills the package cache',
      ownerType: 'team',
      ownerId: 'te1orbit',
      isEnabled: true,
      runOnce: false,
    });
    expect(script.machines).toBeUndefined();
    expect(await world.maya.scripts.text(script.id)).toBe('#!/bin/bash\necho warming\n');
  });

  it('creates a script from a local file, whose content becomes the script text', async () => {
    const world = await startContractWorld();
    directory = await mkdtemp(join(tmpdir(), 'contract-script-'));
    const path = join(directory, 'setup.ps1');
    const content = 'Write-Host "héllo from a file"\r\nSet-TimeZone -Id "UTC"\r\n';
    await writeFile(path, content, 'utf8');

    const script = await world.ada.scripts.create({
      scriptName: 'from-file',
      scriptFile: path,
      runOnce: true,
    });

    expect(script).toMatchObject({ name: 'from-file', ownerType: 'user', ownerId: 'u1ada', runOnce: true });
    expect(await world.ada.scripts.text(script.id)).toBe(content);
  });

  it('assigns a new script to a machine, which runs it at its next boot', async () => {
    const world = await startContractWorld();
    const script = await world.ada.scripts.create({
      scriptName: 'on-boot',
      scriptText: 'echo booted',
      machineId: 'psada003',
    });
    expect(await world.ada.scripts.show(script.id)).toMatchObject({
      machines: [{ machineId: 'psada003', dtLastRun: null }],
    });
    await world.ada.machines.start('psada003');
    world.clock.advance(TRANSITION_MS);
    const ranAt = new Date(world.clock.now()).toISOString();
    expect((await world.ada.scripts.show(script.id)).machines).toEqual([
      { machineId: 'psada003', dtLastRun: ranAt },
    ]);
    expect(await world.ada.machines.show('psada003')).toMatchObject({
      scriptId: script.id,
      dtLastRun: ranAt,
    });
  });

  it('refuses a second script with the same name in one account (PaperspaceConflictError)', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(
      world.maya.scripts.create({ scriptName: 'install-cuda-tools', scriptText: 'echo again' }),
    );
    expect(error).toBeInstanceOf(PaperspaceConflictError);
    expect(error.message).toBe(
      'Paperspace could not create script install-cuda-tools because of a conflict: ' +
        'A script named "install-cuda-tools" already exists. Check its current state and try again.',
    );
  });
});

describe('reading scripts', () => {
  it('lists the account’s scripts, filtered by strings and booleans', async () => {
    const world = await startContractWorld();
    await world.maya.scripts.create({ scriptName: 'disabled-one', scriptText: 'true', isEnabled: false });
    const names = async (filters: Parameters<typeof world.maya.scripts.list>[0]) =>
      (await world.maya.scripts.list(filters)).map((script) => script.name).sort();

    expect(await names({})).toEqual(['disabled-one', 'install-cuda-tools']);
    expect(await names({ isEnabled: false })).toEqual(['disabled-one']);
    expect(await names({ isEnabled: true })).toEqual(['install-cuda-tools']);
    expect(await names({ runOnce: true })).toEqual(['install-cuda-tools']);
    expect(await names({ ownerType: 'team', name: 'disabled-one' })).toEqual(['disabled-one']);
    expect(await names({ ownerType: 'user' })).toEqual([]);
    expect(await names({ id: 'scorb001' })).toEqual(['install-cuda-tools']);
    expect(await names({ description: 'Installs the CUDA toolkit and nvtop on first boot' })).toEqual([
      'install-cuda-tools',
    ]);
    expect((await world.ada.scripts.list()).map((script) => script.name)).toEqual(['mount-projects']);
  });

  it('shows a script with the machines it is assigned to, and its text separately', async () => {
    const world = await startContractWorld();
    const script = await world.maya.scripts.show('scorb001');
    expect(script).toMatchObject({ id: 'scorb001', name: 'install-cuda-tools', runOnce: true });
    expect(script.machines).toEqual([{ machineId: 'psorb001', dtLastRun: null }]);
    expect(await world.maya.scripts.text('scorb001')).toMatch(/^#!\/usr\/bin\/env bash\n/);
  });

  it('does not show another account’s script (PaperspaceNotFoundError naming it)', async () => {
    const world = await startContractWorld();
    const error = await rejectionOf(world.ada.scripts.show('scorb001'));
    expect(error).toBeInstanceOf(PaperspaceNotFoundError);
    expect(error.message).toMatch(/^Paperspace has no script with id "scorb001" that your account can see/);
  });
});

describe('destroying scripts', () => {
  it('destroys a script, which disappears and is unassigned from its machines at once', async () => {
    const world = await startContractWorld();
    await world.maya.scripts.destroy('scorb001');
    expect(await rejectionOf(world.maya.scripts.show('scorb001'))).toBeInstanceOf(PaperspaceNotFoundError);
    expect(await world.maya.scripts.list()).toEqual([]);
    expect((await world.maya.machines.show('psorb001')).scriptId).toBeNull();
  });
});
