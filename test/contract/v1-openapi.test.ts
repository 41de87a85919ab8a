// Every request the client sends on v1, and every answer the emulator gives it, checked against the
// test's own reading of v1's OpenAPI (v1-openapi-schemas.ts): the client cannot add a field or a
// parameter the specification lacks, and the emulator cannot answer in a shape the specification
// does not describe, without this failing. Both drifting together is what it guards against.
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../tools/emulator/index.js';
import { DEMO_USERS, startContractWorld } from './harness.js';
import { answerProblemsOf, errorProblemsOf, requestProblemsOf } from './v1-openapi-check.js';

/** Both sides of one exchange: what the client sent, and what the emulator answered. */
const problemsOf = (entry: RequestLogEntry) => [...requestProblemsOf(entry), ...answerProblemsOf(entry)];

describe("v1 requests and answers against the specification's schemas", () => {
  it('holds for every v1 operation the client uses', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const mark = world.mark();
    const maya = world.maya;
    await maya.account.whoAmI();
    await world
      .client({ apiKey: 'not-a-real-key' })
      .account.whoAmI()
      .catch(() => undefined);
    const [template] = await maya.templates.list();
    if (!template) throw new Error('the demo world has templates');
    const users = await maya.users.list();
    await maya.networks.list();
    await maya.sharedDrives.list();
    await maya.machines.availability('East Coast (NY2)', 'A4000');
    const created = await maya.machines.create(
      {
        machineName: 'spec-box',
        machineType: template.machineTypes?.[0] ?? 'C4',
        templateId: template.id,
        region: 'East Coast (NY2)',
        size: 100,
        userId: users.find((user) => user.id !== 'u1maya')?.id,
      },
      { template },
    );
    await maya.machines.show(created.id);
    // Maya's own machine: granting Sam access to his own would be refused.
    const machine = (await maya.machines.list()).find((listed) => listed.name === 'maya-trainer');
    if (!machine) throw new Error('the team has maya-trainer');
    await maya.machines.list({ state: 'off', limit: 5 });
    await maya.machines.update(machine.id, { machineName: 'renamed', autoSnapshotFrequency: 'day' });
    await maya.machines.start(machine.id).catch(() => undefined);
    await maya.machines.stop(machine.id).catch(() => undefined);
    await maya.machines.setAccess(machine.id, { userId: 'u1sam', enableAccess: true });
    await maya.machines.accessors(machine.id);
    await maya.machines.utilization(machine.id, '2026-11');
    const script = await maya.scripts.create({ scriptName: 'hello', scriptText: 'echo hello' });
    await maya.scripts.list();
    await maya.scripts.show(script.id);
    await maya.scripts.destroy(script.id);
    await maya.machines.destroy(created.id);

    const logged = world.requestsSince(mark);
    expect(logged.length).toBeGreaterThan(15);
    expect(logged.flatMap(problemsOf)).toEqual([]);
  });

  it('fails a request that carries a field the specification does not have', () => {
    const entry = {
      method: 'POST',
      path: '/v1/machines',
      query: '',
      status: 400,
      at: 0,
      userId: null,
      body: {
        name: 'x',
        machineType: 'C4',
        templateId: 't',
        region: 'ny2',
        diskSize: 50,
        billingType: 'hourly',
      },
      reply: {},
    };
    expect(problemsOf(entry).join('\n')).toContain('billingType');
    expect(
      problemsOf({ ...entry, method: 'GET', body: undefined, query: '?limit=500' }).join('\n'),
    ).toContain('limit');
  });

  it('fails an answer that leaves out a required field or gives null where the OpenAPI says string', () => {
    const template = {
      id: 'tx',
      name: 'x',
      agentType: 'LinuxHeadless',
      operatingSystemLabel: 'Ubuntu 22.04',
      defaultSizeGb: 50,
      availableMachineTypes: [],
      dtCreated: '2024-05-15T09:00:00.000Z',
      region: null,
      parentMachineId: null,
    };
    const entry = {
      method: 'GET',
      path: '/v1/custom-templates',
      query: '',
      status: 200,
      at: 0,
      userId: null,
      body: undefined,
      reply: { hasMore: false, nextPage: null, items: [template] },
    };
    const problems = answerProblemsOf(entry).join('\n');
    expect(problems).toContain('items.0.region');
    expect(problems).toContain('items.0.parentMachineId');
    const session = {
      ...entry,
      path: '/v1/auth/session',
      reply: { user: { id: 'u', email: 'e' }, team: {} },
    };
    expect(answerProblemsOf(session).join('\n')).toContain('team.maxMachines');
  });

  it("answers every failure with the specification's error body and the code of its status", async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const mark = world.mark();
    const maya = DEMO_USERS.maya.apiKey;
    const statuses: number[] = [];
    const send = async (request: Parameters<typeof world.raw>[0]) =>
      statuses.push((await world.raw(request)).status);
    // v1 takes the key as a Bearer token, which raw() sends as `accessToken`.
    // A body that fails validation: several bad fields, listed in details.
    await send({ method: 'POST', path: '/v1/machines', body: { name: 7, diskSize: 3 }, accessToken: maya });
    await send({ method: 'GET', path: '/v1/machines', query: { limit: 500 }, accessToken: maya });
    await send({ method: 'GET', path: '/v1/machines', accessToken: 'not-a-real-key' });
    await send({ method: 'GET', path: '/v1/machines/psnothere', accessToken: maya });
    await send({ method: 'GET', path: '/v1/no-such-endpoint', accessToken: maya });
    await send({ method: 'GET', path: '/v1/shared-drives', accessToken: DEMO_USERS.sam.apiKey });
    world.state.failNextRequests({ count: 1, status: 429, path: '/v1/machines' });
    await send({ method: 'GET', path: '/v1/machines', accessToken: maya });
    world.state.failNextRequests({ count: 1, status: 500, path: '/v1/machines' });
    await send({ method: 'GET', path: '/v1/machines', accessToken: maya });
    expect(statuses).toEqual([400, 400, 401, 404, 404, 403, 429, 500]);

    const logged = world.requestsSince(mark);
    expect(logged.flatMap(errorProblemsOf)).toEqual([]);
    const invalid = logged[0]?.reply as { code: string; details?: { issues?: unknown[] } } | undefined;
    expect(invalid?.code).toBe('BAD_REQUEST');
    expect(invalid?.details?.issues?.length).toBeGreaterThan(1);
  });

  it('lists newest first (by name from Z for templates) when no order is asked, as the specification defaults', async () => {
    const world = await startContractWorld({ dialect: 'v1' });
    const maya = DEMO_USERS.maya.apiKey;
    const list = async (path: string) =>
      (await world.raw({ method: 'GET', path, accessToken: maya })).body.items as Record<string, string>[];
    const descending = (values: string[]) => [...values].sort().reverse();
    // Two scripts an hour apart, so the team's scripts have creation times to order.
    for (const name of ['first', 'second']) {
      world.clock.advance(60 * 60 * 1000);
      const body = { name, script: 'echo hello' };
      await world.raw({ method: 'POST', path: '/v1/startup-scripts', body, accessToken: maya });
    }
    for (const path of ['/v1/machines', '/v1/startup-scripts', '/v1/private-networks']) {
      const created = (await list(path)).map((item) => String(item.dtCreated));
      expect(created.length, path).toBeGreaterThan(1);
      expect(created, path).toEqual(descending(created));
    }
    const [machine] = await list('/v1/machines');
    const events = (await list(`/v1/machine-events?machineId=${machine?.id}`)).map((event) =>
      String(event.dtCreated),
    );
    expect(events).toEqual(descending(events));
    const names = (await list('/v1/os-templates')).map((template) => String(template.name));
    expect(names.length).toBeGreaterThan(1);
    expect(names).toEqual(descending(names));
  });
});
