// Every request the client sends on v1, and every answer the emulator gives it, checked against the
// test's own reading of v1's OpenAPI (v1-openapi-schemas.ts): the client cannot add a field or a
// parameter the specification lacks, and the emulator cannot answer in a shape the specification
// does not describe, without this failing. Both drifting together is what it guards against.
import { describe, expect, it } from 'vitest';
import type { RequestLogEntry } from '../../tools/emulator/index.js';
import { startContractWorld } from './harness.js';
import { operationOf } from './v1-openapi-schemas.js';

function problemsOf(entry: RequestLogEntry): string[] {
  const where = `${entry.method} ${entry.path}${entry.query}`;
  const operation = operationOf(entry.method, entry.path);
  if (!operation) return [`${where}: not an operation of the specification`];
  const problems: string[] = [];
  const query = Object.fromEntries(new URLSearchParams(entry.query));
  const parsedQuery = operation.query.safeParse(query);
  if (!parsedQuery.success) problems.push(`${where} query: ${parsedQuery.error.message}`);
  if (operation.body) {
    const parsedBody = operation.body.safeParse(entry.body ?? {});
    if (!parsedBody.success) problems.push(`${where} body: ${parsedBody.error.message}`);
  } else if (entry.body !== undefined) {
    problems.push(`${where}: sent a body the operation does not take`);
  }
  if (entry.status === 200) {
    const parsedAnswer = operation.answer.safeParse(entry.reply);
    if (!parsedAnswer.success) problems.push(`${where} answer: ${parsedAnswer.error.message}`);
  }
  return problems;
}

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
    const [machine] = await maya.machines.list();
    if (!machine) throw new Error('the team has machines');
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
});
