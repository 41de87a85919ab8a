import { describe, expect, it } from 'vitest';
import { parseDatabaseUrl } from '../../src/config.js';
import type { NewApprovalRequest } from '../../src/store/approval-requests.js';
import { openPostgresClient } from '../../src/store/postgres-client.js';
import type { SqlClient } from '../../src/store/sql-client.js';
import { openSqliteClient } from '../../src/store/sqlite-client.js';
import { storeFactories, useFreshStore } from './store-factories.js';

const T0 = Date.UTC(2025, 0, 6, 10, 0);
const DAY = 24 * 3_600_000;

const createRequest = (overrides: Partial<NewApprovalRequest> = {}): NewApprovalRequest => ({
  teamId: 'T1',
  requesterId: 'U_SAM',
  paperspaceTeamId: 'te1',
  kind: 'create',
  machineId: null,
  machineName: 'sam-gpu',
  ownerId: null,
  details: { params: { machineName: 'sam-gpu', machineType: 'C4' } },
  channel: 'C_ML',
  createdAt: T0,
  expiresAt: T0 + DAY,
  ...overrides,
});

/** A second connection to the database, to write rows as an older version of the bot (or a hand) did. */
function rawClient(url: string): SqlClient {
  const target = parseDatabaseUrl(url);
  if ('error' in target) throw new Error(target.error);
  return target.kind === 'postgres'
    ? openPostgresClient(target.connectionString)
    : openSqliteClient(target.path);
}

describe.each(storeFactories)('approval requests on $name', (factory) => {
  const db = useFreshStore(factory);

  async function storeDetails(id: string, details: string): Promise<void> {
    const raw = rawClient(db.url);
    try {
      await raw.run('UPDATE approval_requests SET details = ? WHERE id = ?', [details, id]);
    } finally {
      await raw.close();
    }
  }

  it('keeps a request with its details and the messages it was posted as', async () => {
    const request = await db.store.approvals.create(createRequest());
    await db.store.approvals.addMessage(request.id, { channel: 'D_MAYA', ts: '1.1', to: 'approver' });
    await db.store.approvals.addMessage(request.id, { channel: 'D_SAM', ts: '2.2', to: 'requester' });
    expect(await db.store.approvals.get(request.id)).toEqual({
      ...createRequest(),
      id: request.id,
      status: 'open',
      decidedBy: null,
      decidedAt: null,
      reason: null,
      functionExecutionId: null,
      messages: [
        { channel: 'D_MAYA', ts: '1.1', to: 'approver' },
        { channel: 'D_SAM', ts: '2.2', to: 'requester' },
      ],
    });
  });

  it('keeps the Workflow Builder step run a request ends, for any replica that decides it', async () => {
    const request = await db.store.approvals.create(createRequest({ functionExecutionId: 'Fx0001' }));
    const other = await db.connect();
    expect((await other.approvals.get(request.id))?.functionExecutionId).toBe('Fx0001');
    expect(await other.approvals.decide(request.id, { status: 'denied', by: 'U_MAYA', at: T0 + 1 })).toBe(
      true,
    );
    expect(await db.store.approvals.get(request.id)).toMatchObject({
      status: 'denied',
      functionExecutionId: 'Fx0001',
    });
  });

  it('decides a request once when two replicas decide it at the same moment', async () => {
    const request = await db.store.approvals.create(createRequest());
    const other = await db.connect();
    const results = await Promise.all([
      db.store.approvals.decide(request.id, { status: 'approved', by: 'U_MAYA', at: T0 + 1 }),
      other.approvals.decide(request.id, { status: 'denied', by: 'U_LEE', at: T0 + 1 }),
    ]);
    expect(results.filter(Boolean)).toHaveLength(1);
    const decided = await db.store.approvals.get(request.id);
    expect(decided?.decidedBy).toBe(results[0] ? 'U_MAYA' : 'U_LEE');
    expect(
      await db.store.approvals.decide(request.id, { status: 'withdrawn', by: 'U_SAM', at: T0 + 2 }),
    ).toBe(false);
  });

  it('refuses to approve an expired request, and lists it as due to expire', async () => {
    const request = await db.store.approvals.create(createRequest());
    expect(
      await db.store.approvals.decide(request.id, { status: 'approved', by: 'U_MAYA', at: T0 + DAY }),
    ).toBe(false);
    expect((await db.store.approvals.dueToExpire(T0 + DAY, 10)).map((due) => due.id)).toEqual([request.id]);
    expect(
      await db.store.approvals.decide(request.id, { status: 'expired', by: 'system', at: T0 + DAY }),
    ).toBe(true);
    expect(await db.store.approvals.dueToExpire(T0 + DAY, 10)).toEqual([]);
  });

  it('lists the requests a person made and those waiting for them', async () => {
    const create = await db.store.approvals.create(createRequest());
    const start = await db.store.approvals.create(
      createRequest({ kind: 'start', machineId: 'ps1', ownerId: 'U_MAYA', paperspaceTeamId: 'te1' }),
    );
    await db.store.approvals.create(createRequest({ paperspaceTeamId: 'te-other', requesterId: 'U_OTTO' }));
    expect((await db.store.approvals.openBy('T1', 'U_SAM', T0)).map((r) => r.id).sort()).toEqual(
      [create.id, start.id].sort(),
    );
    const forMaya = await db.store.approvals.openFor('T1', { userId: 'U_MAYA', paperspaceTeamId: 'te1' }, T0);
    expect(forMaya.map((r) => r.id).sort()).toEqual([create.id, start.id].sort());
    const forLee = await db.store.approvals.openFor('T1', { userId: 'U_LEE', paperspaceTeamId: 'te1' }, T0);
    expect(forLee.map((r) => r.id)).toEqual([create.id]);
    expect(await db.store.approvals.openFor('T1', { userId: 'U_SAM', paperspaceTeamId: 'te1' }, T0)).toEqual(
      [],
    );
    // No linked owner was found for this one (v1 names none, or the owner never linked): the team's
    // people are candidates, and the command narrows them down.
    const ownerless = await db.store.approvals.create(
      createRequest({ kind: 'stop', machineId: 'ps2', ownerId: null, paperspaceTeamId: 'te1' }),
    );
    const forLeeNow = await db.store.approvals.openFor(
      'T1',
      { userId: 'U_LEE', paperspaceTeamId: 'te1' },
      T0,
    );
    expect(forLeeNow.map((r) => r.id).sort()).toEqual([create.id, ownerless.id].sort());
  });

  it('gives an approval back when the approver could not act, and only that approver', async () => {
    const request = await db.store.approvals.create(createRequest());
    await db.store.approvals.decide(request.id, { status: 'approved', by: 'U_LEE', at: T0 + 1 });
    expect(await db.store.approvals.reopen(request.id, 'U_MAYA')).toBe(false);
    expect(await db.store.approvals.reopen(request.id, 'U_LEE')).toBe(true);
    expect((await db.store.approvals.get(request.id))?.status).toBe('open');
  });

  it('keeps a standing grant until it runs out, a renewal extending it', async () => {
    const grant = { teamId: 'T1', ownerId: 'U_MAYA', requesterId: 'U_SAM', machineId: 'ps1' };
    await db.store.approvals.grant({ ...grant, expiresAt: T0 + 3_600_000 });
    expect(await db.store.approvals.grantedBy('T1', 'U_SAM', 'ps1', T0)).toBe('U_MAYA');
    expect(await db.store.approvals.grantedBy('T1', 'U_SAM', 'ps2', T0)).toBeUndefined();
    expect(await db.store.approvals.grantedBy('T1', 'U_SAM', 'ps1', T0 + 3_600_000)).toBeUndefined();
    await db.store.approvals.grant({ ...grant, expiresAt: T0 + 2 * 3_600_000 });
    expect(await db.store.approvals.grantedBy('T1', 'U_SAM', 'ps1', T0 + 3_600_000)).toBe('U_MAYA');
  });

  it('remembers the roles Paperspace showed, a later answer replacing an earlier one', async () => {
    await db.store.approvals.noteRole('T1', 'u_maya', true, T0);
    await db.store.approvals.noteRole('T1', 'u_sam', true, T0);
    await db.store.approvals.noteRole('T1', 'u_sam', false, T0 + 1);
    await db.store.approvals.noteRole('T2', 'u_otto', true, T0);
    expect(await db.store.approvals.knownRoles('T1')).toEqual(
      new Map([
        ['u_maya', true],
        ['u_sam', false],
      ]),
    );
  });

  it("remembers each Paperspace team's approvals channel and request lifetime", async () => {
    const set = (channel: string | null, lifetimeMs: number | null) =>
      db.store.approvals.setSettings({
        teamId: 'T1',
        paperspaceTeamId: 'te1',
        settings: { channel, lifetimeMs },
        setBy: 'U_MAYA',
        at: T0,
      });
    await set('C1', null);
    await set('C2', 2 * DAY);
    expect(await db.store.approvals.settingsOf('T1', 'te1')).toEqual({ channel: 'C2', lifetimeMs: 2 * DAY });
    expect(await db.store.approvals.settingsOf('T1', 'te2')).toBeUndefined();
  });

  it('reads the details of every shape an earlier version stored, by kind', async () => {
    const create = await db.store.approvals.create(createRequest());
    const power = await db.store.approvals.create(
      createRequest({
        kind: 'stop',
        machineId: 'ps1',
        ownerId: 'U_MAYA',
        details: { ownerPaperspaceId: 'u_maya' },
      }),
    );
    // Before `asked` was stored, and a power request's details were once empty; unknown keys are ignored.
    await storeDetails(create.id, '{"params":{"machineName":"sam-gpu"},"hourlyRate":null,"later":1}');
    await storeDetails(power.id, '{}');
    expect((await db.store.approvals.get(create.id))?.details).toEqual({
      params: { machineName: 'sam-gpu' },
      hourlyRate: null,
    });
    expect((await db.store.approvals.get(power.id))?.details).toEqual({});
  });

  it('returns a request whose details do not parse as unreadable, with why, and still lists it', async () => {
    const request = await db.store.approvals.create(createRequest());
    const other = await db.store.approvals.create(createRequest());
    await storeDetails(request.id, '{"params":"sam-gpu"}');
    await storeDetails(other.id, 'not json');
    const read = await db.store.approvals.get(request.id);
    expect(read).toMatchObject({ id: request.id, status: 'open', machineName: 'sam-gpu', details: null });
    expect(read && 'problem' in read ? read.problem : '').toContain('details.params');
    expect(await db.store.approvals.get(other.id)).toMatchObject({
      details: null,
      problem: 'details: not JSON',
    });
    expect((await db.store.approvals.openBy('T1', 'U_SAM', T0)).map((r) => r.id).sort()).toEqual(
      [request.id, other.id].sort(),
    );
    expect((await db.store.approvals.dueToExpire(T0 + DAY, 10)).map((r) => r.id).sort()).toEqual(
      [request.id, other.id].sort(),
    );
  });

  it('refuses to store details that do not fit the kind of request', async () => {
    await expect(db.store.approvals.create(createRequest({ details: {} }))).rejects.toThrow(
      /details do not fit its kind/,
    );
  });
});
