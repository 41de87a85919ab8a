// Every request the contract forbids that a client can recognise by itself, three times over:
// 1. the client refuses it before sending (the emulator's request log does not grow);
// 2. sent raw, bypassing the client, the emulator refuses it with the real error shape;
// 3. that answer, read by the client's own HTTP core, becomes a PaperspaceBadRequestError whose
//    message repeats the server's reason.
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { PaperspaceClient } from '../../src/paperspace/client.js';
import { type DedicatedGpuMachineType, SCRIPT_MAX_BYTES } from '../../src/paperspace/constants.js';
import { PaperspaceBadRequestError, RequestValidationError } from '../../src/paperspace/errors.js';
import type {
  CreateMachineParams,
  TemplateInfo,
} from '../../src/paperspace/request-params/machine-create-params.js';
import {
  type ContractWorld,
  DEMO_SECRETS,
  DEMO_USERS,
  type DemoUser,
  type RawRequest,
  rejectionOf,
  startContractWorld,
} from './harness.js';

const CREATE_PATH = '/machines/createSingleMachinePublic';

const adaCreate = {
  region: 'West Coast (CA1)',
  machineType: 'P4000',
  size: 250,
  billingType: 'hourly',
  machineName: 'refused',
  templateId: 'tkni3aa4',
} satisfies CreateMachineParams;

const mayaCreate = {
  ...adaCreate,
  region: 'East Coast (NY2)',
  machineType: 'C5',
  size: 50,
  templateId: 't04azgph',
  teamId: 'te1orbit',
} satisfies CreateMachineParams;

const newTeamUser = {
  email: 'new.hire@orbital.example',
  password: 'correct horse battery',
  firstName: 'New',
  lastName: 'Hire',
};

interface ForbiddenRequest {
  /** The forbidden condition, as the contract words it. */
  condition: string;
  who: DemoUser;
  /** A template the caller looked up first: the client applies its OS rules when it knows it. */
  templateId?: string;
  /** The client call a user of the bot could make. */
  call: (client: PaperspaceClient, template: TemplateInfo | undefined) => Promise<unknown>;
  /** What the client says, without sending anything. */
  clientMessage: string;
  /** The same request, as it would travel on the wire. */
  wire: Omit<RawRequest, 'apiKey' | 'accessToken'>;
  /** Client operation and action, as the client's resource method would name them. */
  operation: string;
  action: string;
  /** The emulator's reason, which the client's message must repeat. */
  serverMessage: RegExp;
}

const tooLongScript = `#!/bin/bash\n${'echo padding\n'.repeat(Math.ceil(SCRIPT_MAX_BYTES / 13))}`;

const FORBIDDEN: ForbiddenRequest[] = [
  {
    condition: 'assignPublicIp together with dynamicPublicIp on create',
    who: 'ada',
    call: (client) => client.machines.create({ ...adaCreate, assignPublicIp: true, dynamicPublicIp: true }),
    clientMessage:
      'Cannot create machine refused: assignPublicIp cannot be combined with dynamicPublicIp; give one of them.',
    wire: {
      method: 'POST',
      path: CREATE_PATH,
      body: { ...adaCreate, assignPublicIp: true, dynamicPublicIp: true },
    },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage: /assignPublicIp and dynamicPublicIp cannot be combined/,
  },
  {
    condition: 'assignPublicIp together with dynamicPublicIp on create, even when one of them is false',
    who: 'ada',
    call: (client) => client.machines.create({ ...adaCreate, assignPublicIp: false, dynamicPublicIp: true }),
    clientMessage:
      'Cannot create machine refused: assignPublicIp cannot be combined with dynamicPublicIp; give one of them.',
    wire: {
      method: 'POST',
      path: CREATE_PATH,
      body: { ...adaCreate, assignPublicIp: false, dynamicPublicIp: true },
    },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage: /assignPublicIp and dynamicPublicIp cannot be combined/,
  },
  {
    condition: 'userId together with email, password, firstName or lastName on create',
    who: 'maya',
    call: (client) => client.machines.create({ ...mayaCreate, userId: 'u1sam', email: newTeamUser.email }),
    clientMessage:
      'Cannot create machine refused: email cannot be given with userId: assign an existing user or ' +
      'describe a new one, not both.',
    wire: { method: 'POST', path: CREATE_PATH, body: { ...mayaCreate, userId: 'u1sam', ...newTeamUser } },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage: /userId cannot be combined with email, password, firstName, lastName/,
  },
  {
    condition: 'markSnapshotAsRestorePoint true without takeInitialSnapshot true',
    who: 'ada',
    call: (client) =>
      client.machines.create({
        ...adaCreate,
        markSnapshotAsRestorePoint: true,
        restorePointFrequency: 'shutdown',
      }),
    clientMessage:
      'Cannot create machine refused: takeInitialSnapshot must be true when markSnapshotAsRestorePoint is true.',
    wire: {
      method: 'POST',
      path: CREATE_PATH,
      body: { ...adaCreate, markSnapshotAsRestorePoint: true, restorePointFrequency: 'shutdown' },
    },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage:
      /markSnapshotAsRestorePoint requires takeInitialSnapshot set to true and a restorePointFrequency/,
  },
  {
    condition: 'markSnapshotAsRestorePoint true without a restorePointFrequency',
    who: 'ada',
    call: (client) =>
      client.machines.create({ ...adaCreate, markSnapshotAsRestorePoint: true, takeInitialSnapshot: true }),
    clientMessage:
      'Cannot create machine refused: restorePointFrequency is required when markSnapshotAsRestorePoint ' +
      'is true (one of "shutdown").',
    wire: {
      method: 'POST',
      path: CREATE_PATH,
      body: { ...adaCreate, markSnapshotAsRestorePoint: true, takeInitialSnapshot: true },
    },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage:
      /markSnapshotAsRestorePoint requires takeInitialSnapshot set to true and a restorePointFrequency/,
  },
  {
    condition: 'a Windows template with C1 to C10',
    who: 'ada',
    templateId: 'tkni3aa4',
    call: (client, template) =>
      client.machines.create({ ...adaCreate, machineType: 'C4', size: 50 }, template ? { template } : {}),
    clientMessage:
      'Cannot create machine refused: machineType cannot be C4: Windows templates (paperspace/tkni3aa4) ' +
      'cannot create CPU-only types C1 to C10.',
    wire: { method: 'POST', path: CREATE_PATH, body: { ...adaCreate, machineType: 'C4', size: 50 } },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage: /Windows templates cannot create C4 machines/,
  },
  {
    condition: 'an Ubuntu template with Air, Standard, Pro or Advanced',
    who: 'ada',
    templateId: 't04azgph',
    call: (client, template) =>
      client.machines.create(
        { ...adaCreate, machineType: 'Pro', templateId: 't04azgph' },
        template ? { template } : {},
      ),
    clientMessage:
      'Cannot create machine refused: machineType cannot be Pro: Ubuntu templates (paperspace/t04azgph) ' +
      'cannot create Air, Standard, Pro or Advanced.',
    wire: {
      method: 'POST',
      path: CREATE_PATH,
      body: { ...adaCreate, machineType: 'Pro', templateId: 't04azgph' },
    },
    operation: 'machines.create',
    action: 'create machine refused',
    serverMessage: /Ubuntu templates cannot create Pro machines/,
  },
  {
    condition: 'creating a script with neither scriptFile nor scriptText',
    who: 'ada',
    call: (client) => client.scripts.create({ scriptName: 'empty-handed' }),
    clientMessage: 'Cannot create script empty-handed: scriptText or scriptFile is required.',
    wire: { method: 'POST', path: '/scripts/createScript', body: { scriptName: 'empty-handed' } },
    operation: 'scripts.create',
    action: 'create script empty-handed',
    serverMessage: /Give the script data in scriptText or scriptFile/,
  },
  {
    condition: 'script data over 16 KB',
    who: 'ada',
    call: (client) => client.scripts.create({ scriptName: 'too-long', scriptText: tooLongScript }),
    clientMessage: `Cannot create script too-long: scriptText is ${Buffer.byteLength(tooLongScript)} bytes of UTF-8; Paperspace limits a script to 16 KB (16384 bytes).`,
    wire: {
      method: 'POST',
      path: '/scripts/createScript',
      body: { scriptName: 'too-long', scriptText: tooLongScript },
    },
    operation: 'scripts.create',
    action: 'create script too-long',
    serverMessage: /Script data is \d+ bytes; the limit is 16384 bytes/,
  },
  {
    condition: 'availability of a type that is not a dedicated GPU type',
    who: 'ada',
    // As a person typing in Slack could ask: the type is not one availability is reported for.
    call: (client) => client.machines.availability('West Coast (CA1)', 'C4' as DedicatedGpuMachineType),
    clientMessage:
      'Cannot check availability of C4 in West Coast (CA1): machineType must be one of "GPU+", "P4000", ' +
      '"P5000", "P6000", "V100": Paperspace reports availability only for dedicated GPU types.',
    wire: {
      method: 'GET',
      path: '/machines/getAvailability',
      query: { region: 'West Coast (CA1)', machineType: 'C4' },
    },
    operation: 'machines.availability',
    action: 'check availability of C4 in West Coast (CA1)',
    serverMessage: /Availability is reported only for GPU\+, P4000, P5000, P6000, V100/,
  },
  {
    condition: 'a machine filter named id instead of machineId',
    who: 'ada',
    call: (client) => client.machines.list({ id: 'psada001' } as never),
    clientMessage: 'Cannot list machines: id is not a machine filter; use machineId.',
    wire: { method: 'GET', path: '/machines/getMachines', query: { id: 'psada001' } },
    operation: 'machines.list',
    action: 'list machines',
    serverMessage: /Unknown filter "id"; allowed: machineId, name/,
  },
  {
    condition: 'a page larger than 1000 machines',
    who: 'ada',
    call: (client) => client.machines.list({ limit: 1001 }),
    clientMessage: 'Cannot list machines: limit must be a whole number from 1 to 1000.',
    wire: { method: 'GET', path: '/machines/getMachines', query: { limit: 1001 } },
    operation: 'machines.list',
    action: 'list machines',
    serverMessage: /limit must be between 1 and 1000, got 1001/,
  },
  {
    condition: 'a billing month not written YYYY-MM',
    who: 'ada',
    call: (client) => client.machines.utilization('psada001', '2024-5'),
    clientMessage:
      "Cannot read this machine's usage for 2024-5: billingMonth must be a month written YYYY-MM, e.g. 2024-05.",
    wire: {
      method: 'GET',
      path: '/machines/getUtilization',
      query: { machineId: 'psada001', billingMonth: '2024-5' },
    },
    operation: 'machines.utilization',
    action: "read this machine's usage for 2024-5",
    serverMessage: /billingMonth must look like YYYY-MM, got "2024-5"/,
  },
];

async function templateFor(
  world: ContractWorld,
  request: ForbiddenRequest,
): Promise<TemplateInfo | undefined> {
  if (request.templateId === undefined) return undefined;
  const [template] = await world[request.who].templates.list({ id: request.templateId });
  if (!template) throw new Error(`The demo seed has no template ${request.templateId}`);
  return template;
}

describe.each(FORBIDDEN)('$condition', (forbidden) => {
  it('is refused by the client before anything is sent, with a message naming the field', async () => {
    const world = await startContractWorld();
    const template = await templateFor(world, forbidden);
    const mark = world.mark();
    const error = await rejectionOf(forbidden.call(world[forbidden.who], template));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.message).toBe(forbidden.clientMessage);
    expect(world.requestsSince(mark)).toEqual([]);
  });

  it('is refused by the emulator with 400 in the nested error shape when sent raw', async () => {
    const world = await startContractWorld();
    const answer = await world.raw({ ...forbidden.wire, apiKey: DEMO_USERS[forbidden.who].apiKey });
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({
      error: { name: 'Error', status: 400, message: expect.stringMatching(forbidden.serverMessage) },
    });
  });

  it('comes back through the client’s error mapping as a PaperspaceBadRequestError with the reason', async () => {
    const world = await startContractWorld();
    const before = world.state.machines().length;
    const { method, path, query, body } = forbidden.wire;
    const error = await rejectionOf(
      world.core(forbidden.who).send({
        operation: forbidden.operation,
        action: forbidden.action,
        method,
        url: `${world.emulator.url}${path}`,
        ...(query ? { query } : {}),
        ...(body !== undefined ? { body } : {}),
        credential: 'apiKey',
        schema: z.unknown(),
        idempotent: method === 'GET',
      }),
    );
    expect(error).toBeInstanceOf(PaperspaceBadRequestError);
    expect(error).toMatchObject({ status: 400, bodyStatus: 400, operation: forbidden.operation });
    const { serverMessage } = error as PaperspaceBadRequestError;
    expect(serverMessage).toMatch(forbidden.serverMessage);
    expect(error.message).toBe(
      `Paperspace rejected the request to ${forbidden.action}: ${serverMessage}. Check the values and try again.`,
    );
    for (const secret of DEMO_SECRETS) expect(error.message).not.toContain(secret);
    expect(world.state.machines()).toHaveLength(before);
  });
});

describe('a script file over 16 KB', () => {
  let directory: string | undefined;
  afterEach(async () => {
    if (directory) await rm(directory, { recursive: true, force: true });
  });

  it('is refused by the client from its size on disk, before anything is sent', async () => {
    const world = await startContractWorld();
    directory = await mkdtemp(join(tmpdir(), 'contract-forbidden-'));
    const path = join(directory, 'huge.sh');
    await writeFile(path, tooLongScript, 'utf8');
    const mark = world.mark();
    const error = await rejectionOf(world.ada.scripts.create({ scriptName: 'huge', scriptFile: path }));
    expect(error).toBeInstanceOf(RequestValidationError);
    expect(error.message).toBe(
      `Cannot create script huge: scriptFile is ${Buffer.byteLength(tooLongScript)} bytes; Paperspace limits a script to 16 KB (16384 bytes).`,
    );
    expect(world.requestsSince(mark)).toEqual([]);
  });
});
