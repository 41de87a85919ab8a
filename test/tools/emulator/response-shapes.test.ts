// The emulator's answers must satisfy the same zod schemas the API client parses real answers with.
import { describe, expect, it } from 'vitest';
import {
  availabilitySchema,
  machineListSchema,
  machineSchema,
  machineUtilizationSchema,
  machineWithEventsSchema,
  networkListSchema,
  resourceDelegationSchema,
  scriptListSchema,
  scriptSchema,
  scriptTextSchema,
  sharedDriveSchema,
  templateListSchema,
  userListSchema,
} from '../../../src/paperspace/schemas.js';
import { startHarness, TRANSITION_MS } from './harness.js';
import { KEY, TOKEN } from './test-seed.js';

describe('answers match the shared response schemas', () => {
  it('for machines in every phase of their life', async () => {
    const api = await startHarness();
    const created = await api.post('/machines/createSingleMachinePublic', {
      key: KEY.ivy,
      body: {
        region: 'East Coast (NY2)',
        machineType: 'C4',
        size: 50,
        billingType: 'hourly',
        machineName: 'm',
        templateId: 't-ubuntu',
      },
    });
    machineSchema.parse(created.body);
    for (let step = 0; step < 3; step += 1) {
      machineListSchema.parse((await api.get('/machines/getMachines', { key: KEY.ivy })).body);
      const shown = await api.get('/machines/getMachinePublic', {
        key: KEY.ivy,
        query: { machineId: created.body.id },
      });
      machineWithEventsSchema.parse(shown.body);
      api.clock.advance(TRANSITION_MS);
    }
    machineSchema.parse((await api.post('/machines/ps-ivy-off/start', { key: KEY.ivy })).body);
    const utilization = await api.get('/machines/getUtilization', {
      key: KEY.ivy,
      query: { machineId: 'ps-ivy-ready', billingMonth: '2024-05' },
    });
    machineUtilizationSchema.parse(utilization.body);
    const availability = await api.get('/machines/getAvailability', {
      key: KEY.ivy,
      query: { region: 'West Coast (CA1)', machineType: 'P5000' },
    });
    availabilitySchema.parse(availability.body);
  });

  it('for scripts, templates, users, networks and delegations', async () => {
    const api = await startHarness();
    const script = await api.post('/scripts/createScript', {
      key: KEY.milo,
      body: { scriptName: 's', scriptText: 'echo' },
    });
    scriptSchema.parse(script.body);
    scriptSchema.parse(
      (await api.get('/scripts/getScript', { key: KEY.milo, query: { scriptId: script.body.id } })).body,
    );
    scriptTextSchema.parse(
      (await api.get('/scripts/getScriptText', { key: KEY.milo, query: { scriptId: script.body.id } })).body,
    );
    scriptListSchema.parse((await api.get('/scripts/getScripts', { key: KEY.milo })).body);
    templateListSchema.parse((await api.get('/templates/getTemplates', { key: KEY.milo })).body);
    userListSchema.parse((await api.get('/users/getUsers', { key: KEY.ivy })).body);
    networkListSchema.parse((await api.get('/networks/getNetworks', { key: KEY.milo })).body);
    const delegation = await api.post('/resourceDelegations/create', {
      key: KEY.milo,
      body: { machine: { ids: ['ps-milo-up'] } },
    });
    resourceDelegationSchema.parse(delegation.body);
  });

  it('for shared drives', async () => {
    const api = await startHarness();
    const response = await api.graphql(
      TOKEN.alma,
      '{ sharedDrives(first: 5) { nodes { id name mountPoint size username password region { name } } } }',
    );
    const nodes = response.body.data.sharedDrives.nodes;
    expect(nodes.length).toBeGreaterThan(0);
    for (const drive of nodes) sharedDriveSchema.parse(drive);
  });
});
