// Startup scripts in v1: create, list, get, update (v1 scripts can be edited), delete, and
// assign/unassign to machines. The text is stored but never answered: v1 cannot read it back.
// Names are unique per account and the text limited to 16 KB, as in the contract.
import { z } from 'zod';
import { SCRIPT_MAX_BYTES } from '../../../src/paperspace/constants.js';
import { requireManager, visibleMachine } from '../auth.js';
import { badRequest, conflict, forbidden, notFound } from '../errors.js';
import type { ScriptRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { paginate } from './paging.js';
import type { V1Context, V1Route } from './router.js';
import { scriptV1View } from './views.js';

const scriptText = z
  .string()
  .min(1)
  .refine((text) => Buffer.byteLength(text, 'utf8') <= SCRIPT_MAX_BYTES, {
    message: `the script is larger than ${SCRIPT_MAX_BYTES} bytes (16 KB)`,
  });

const createSchema = z.strictObject({
  name: z.string().trim().min(1),
  script: scriptText,
  isRunOnce: z.boolean().optional(),
});

const updateSchema = z.strictObject({
  name: z.string().trim().min(1).optional(),
  script: scriptText.optional(),
  isEnabled: z.boolean().optional(),
  isRunOnce: z.boolean().optional(),
});

const machineSchema = z.strictObject({ machineId: z.string().min(1) });

function accountScript({ core, user, params }: V1Context): ScriptRecord {
  const script = core.world.scripts.get(params.id ?? '');
  if (script?.accountId !== user.accountId) throw notFound(`Startup script ${params.id} not found`);
  return script;
}

function checkNameFree(context: V1Context, name: string, except: string | null): void {
  const taken = [...context.core.world.scripts.values()].some(
    (script) => script.accountId === context.user.accountId && script.name === name && script.id !== except,
  );
  if (taken) throw conflict(`A startup script named "${name}" already exists`);
}

function createScript(context: V1Context): Reply {
  const { core, user } = context;
  const request = parseV1Body(createSchema, context.body);
  checkNameFree(context, request.name, null);
  const team = core.world.accounts.get(user.accountId)?.kind === 'team';
  const script: ScriptRecord = {
    id: core.ids.next('sc'),
    name: request.name,
    description: null,
    text: request.script,
    ownerType: team ? 'team' : 'user',
    ownerId: team ? user.accountId : user.id,
    accountId: user.accountId,
    creatorId: user.id,
    isEnabled: true,
    runOnce: request.isRunOnce ?? false,
    dtCreated: core.now(),
  };
  core.world.scripts.set(script.id, script);
  return json(scriptV1View(script, core.world));
}

function listScripts(context: V1Context): Reply {
  const { core, user } = context;
  const views = [...core.world.scripts.values()]
    .filter((script) => script.accountId === user.accountId)
    .map((script) => scriptV1View(script, core.world));
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { dtCreated: (script) => script.dtCreated, name: (script) => script.name },
        key: (script) => script.id,
        filters: { name: (script, value) => script.name === value },
      },
      context.paging,
    ),
  );
}

function getScript(context: V1Context): Reply {
  return json(scriptV1View(accountScript(context), context.core.world));
}

function requireEditor(context: V1Context, script: ScriptRecord, verb: string): void {
  if (script.creatorId !== context.user.id && context.user.role !== 'admin') {
    throw forbidden(`Only the script’s creator or an account administrator can ${verb} it`);
  }
}

function updateScript(context: V1Context): Reply {
  const script = accountScript(context);
  requireEditor(context, script, 'change');
  const update = parseV1Body(updateSchema, context.body);
  if (update.name !== undefined) checkNameFree(context, update.name, script.id);
  if (update.name !== undefined) script.name = update.name;
  if (update.script !== undefined) script.text = update.script;
  if (update.isEnabled !== undefined) script.isEnabled = update.isEnabled;
  if (update.isRunOnce !== undefined) script.runOnce = update.isRunOnce;
  return json(scriptV1View(script, context.core.world));
}

function deleteScript(context: V1Context): Reply {
  const script = accountScript(context);
  requireEditor(context, script, 'delete');
  const view = scriptV1View(script, context.core.world);
  context.core.world.scripts.delete(script.id);
  for (const machine of context.core.world.machines.values()) {
    if (machine.scriptId === script.id) machine.scriptId = null;
  }
  return json({ ...view, dtDeleted: new Date(context.core.now()).toISOString() });
}

/** A machine runs one startup script: assigning replaces the one it had. */
function assign(context: V1Context, assigned: boolean): Reply {
  const script = accountScript(context);
  const { machineId } = parseV1Body(machineSchema, context.body);
  const machine = visibleMachine(context.core, { kind: 'user', user: context.user }, machineId);
  requireManager(
    context.core,
    context.user,
    machine,
    assigned ? 'assign a script to' : 'unassign a script from',
  );
  if (assigned) machine.scriptId = script.id;
  else if (machine.scriptId === script.id) machine.scriptId = null;
  else throw badRequest(`machineId: script ${script.id} is not assigned to machine ${machine.id}`);
  return json(scriptV1View(script, context.core.world));
}

export const v1ScriptRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/startup-scripts', handle: listScripts },
  { method: 'POST', path: '/startup-scripts', handle: createScript },
  { method: 'GET', path: '/startup-scripts/:id', handle: getScript },
  { method: 'PUT', path: '/startup-scripts/:id', handle: updateScript },
  { method: 'DELETE', path: '/startup-scripts/:id', handle: deleteScript },
  { method: 'POST', path: '/startup-scripts/:id/assign', handle: (context) => assign(context, true) },
  { method: 'POST', path: '/startup-scripts/:id/unassign', handle: (context) => assign(context, false) },
];
