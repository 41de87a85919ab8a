import { Writable } from 'node:stream';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { billingMonthAt } from '../../../src/domain/billing-month.js';
import { bootedStateOf } from '../../../src/domain/machine-states.js';
import {
  type Actor,
  createMachineOperations,
  type MachineOperations,
} from '../../../src/features/machines/machine-operations.js';
import { createLogger } from '../../../src/logger.js';
import { createPaperspaceClient, type PaperspaceClient } from '../../../src/paperspace/client.js';
import { PaperspacePermissionError } from '../../../src/paperspace/errors.js';
import type { AuditRecord, AuditRecordInput, AuditRepository } from '../../../src/store/audit-records.js';
import { createAuditTrail } from '../../../src/store/audit-trail.js';
import { openStore, type Store } from '../../../src/store/store.js';
import { createFakeClock, type RunningEmulator, startEmulator } from '../../../tools/emulator/index.js';

const clock = createFakeClock();
let emulator: RunningEmulator;
const records: AuditRecord[] = [];

/** An audit log in memory: enough to see what the operations recorded. */
const auditLog: Pick<AuditRepository, 'record' | 'list'> = {
  async record(input: AuditRecordInput) {
    const record: AuditRecord = {
      ...input,
      id: records.length + 1,
      resourceId: input.resourceId ?? null,
      message: input.message ?? null,
    };
    records.push(record);
    return record;
  },
  async list() {
    return [...records].reverse();
  },
};
const silent = createLogger({
  level: 'silent',
  destination: new Writable({ write: (_c, _e, done) => done() }),
});
let store: Store;
let operations: MachineOperations;

function actor(apiKey: string, userId: string): Actor {
  const client: PaperspaceClient = createPaperspaceClient({
    apiKey,
    baseUrl: emulator.url,
    graphqlUrl: emulator.graphqlUrl,
    maxRetries: 0,
  });
  return { user: { teamId: 'T1', userId }, client };
}

beforeAll(async () => {
  emulator = await startEmulator({ now: clock.now, transitionMs: 1000 });
  store = await openStore('sqlite::memory:', { now: clock.now });
  operations = createMachineOperations({
    audit: createAuditTrail({ audit: auditLog, now: clock.now, logger: silent }),
    now: clock.now,
    store,
  });
});
afterAll(async () => {
  await emulator.close();
  await store.close();
});

function machine(id: string) {
  const found = emulator.state.machine(id);
  if (!found) throw new Error(`no machine ${id}`);
  return found;
}

describe('bootedStateOf', () => {
  it('waits for serviceready on headless Linux and for ready on every desktop', () => {
    expect(bootedStateOf({ agentType: 'LinuxHeadless' })).toBe('serviceready');
    expect(bootedStateOf({ agentType: 'LinuxDesktop' })).toBe('ready');
    expect(bootedStateOf({ agentType: 'WindowsDesktop' })).toBe('ready');
    expect(bootedStateOf({ agentType: 'SomethingNew' })).toBe('ready');
  });
});

describe('billingMonthAt', () => {
  it('is the UTC month, whatever the local time zone', () => {
    expect(billingMonthAt(Date.UTC(2024, 4, 31, 23, 59))).toBe('2024-05');
    expect(billingMonthAt(Date.UTC(2024, 5, 1, 0, 0))).toBe('2024-06');
  });
});

describe('machine operations', () => {
  const ada = () => actor('demo-key-ada-individual', 'U0ADA');

  it('starts a machine, audits it, and answers it as re-read after the call with where it is heading', async () => {
    const outcome = await operations.power(ada(), machine('psada002'), 'start');
    expect(outcome).toMatchObject({ kind: 'requested', targetState: 'serviceready' });
    expect(outcome.machine.state).toBe('starting');
    expect(records.at(-1)).toMatchObject({ action: 'machine.start', resourceId: 'psada002', outcome: 'ok' });
  });

  it('sends nothing and records nothing when stopping a machine that is already off', async () => {
    const before = { requests: emulator.state.requests().length, records: records.length };
    const outcome = await operations.power(ada(), machine('psada003'), 'stop');
    expect(outcome).toMatchObject({ kind: 'unchanged', reason: 'already_off' });
    expect(emulator.state.requests().length).toBe(before.requests);
    expect(records.length).toBe(before.records);
  });

  it('records a refused request as an error and lets the refusal through', async () => {
    const sam = actor('demo-key-sam-team-member', 'U0SAM');
    await expect(operations.power(sam, machine('psorb001'), 'stop')).rejects.toBeInstanceOf(
      PaperspacePermissionError,
    );
    expect(records.at(-1)).toMatchObject({
      action: 'machine.stop',
      resourceId: 'psorb001',
      outcome: 'error',
    });
    expect(machine('psorb001').state).toBe('serviceready');
    // The refused stop holds no claim: asked again at once, it is sent again, not taken for a double click.
    const stopsBefore = emulator.state
      .requests()
      .filter((entry) => entry.path.includes('psorb001/stop')).length;
    await expect(operations.power(sam, machine('psorb001'), 'stop')).rejects.toBeInstanceOf(
      PaperspacePermissionError,
    );
    expect(emulator.state.requests().filter((entry) => entry.path.includes('psorb001/stop'))).toHaveLength(
      stopsBefore + 1,
    );
  });

  it('records whom access was granted to, with the refusal when Paperspace refuses', async () => {
    const sam = actor('demo-key-sam-team-member', 'U0SAM');
    await expect(
      operations.setAccess(sam, 'psorb001', { paperspaceUserId: 'u1ada', enableAccess: true }),
    ).rejects.toBeInstanceOf(PaperspacePermissionError);
    const record = records.at(-1);
    expect(record).toMatchObject({
      action: 'machine.access.grant',
      resourceId: 'psorb001',
      outcome: 'error',
    });
    expect(record?.message).toMatch(/^Paperspace user u1ada; PaperspacePermissionError: /);
  });

  it('creates a machine, recording its new id, to be watched until off when it is not started', async () => {
    const outcome = await operations.create(ada(), {
      machineName: 'svc-created',
      region: 'West Coast (CA1)',
      machineType: 'C4',
      size: 50,
      billingType: 'hourly',
      templateId: 't04azgph',
      startOnCreate: false,
    });
    expect(outcome.targetState).toBe('off');
    expect(records.at(-1)).toMatchObject({
      action: 'machine.create',
      resourceId: outcome.machine.id,
      outcome: 'ok',
    });
  });

  it('reads usage for the current UTC month by default', async () => {
    const usage = await operations.usage(ada(), 'psada001', null);
    expect(usage.utilization.billingMonth).toBe(billingMonthAt(clock.now()));
  });
});
