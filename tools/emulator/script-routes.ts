// Startup scripts: create, list, show, text and destroy. A script's name is unique within its
// account; its text is limited to 16 KB of UTF-8 and cannot change after upload.
import { z } from 'zod';
import { SCRIPT_MAX_BYTES } from '../../src/paperspace/constants.js';
import { canManageMachine, requireUser, visibleMachine } from './auth.js';
import { badRequest, conflict, forbidden, notFound } from './errors.js';
import { filterFromQuery, requiredQuery, viewFields } from './filters.js';
import { settleMachine } from './lifecycle.js';
import { iso, scriptView } from './machine-view.js';
import type { ScriptRecord, UserRecord } from './records.js';
import { json, noContent, parseBody, type Reply, type RequestContext, type Route } from './router.js';
import type { EmulatorCore } from './world.js';

const createSchema = z.strictObject({
  scriptName: z.string().trim().min(1),
  // Over HTTP there is no file to read: scriptFile carries the file's content, as the CLI uploads it.
  scriptFile: z.string().optional(),
  scriptText: z.string().optional(),
  scriptDescription: z.string().optional(),
  isEnabled: z.boolean().optional(),
  runOnce: z.boolean().optional(),
  machineId: z.string().min(1).optional(),
});

function visibleScript(core: EmulatorCore, user: UserRecord, scriptId: string): ScriptRecord {
  const script = core.world.scripts.get(scriptId);
  if (script?.accountId !== user.accountId) throw notFound(`Script ${scriptId} not found`);
  return script;
}

function createScript({ core, caller, body }: RequestContext): Reply {
  const user = requireUser(caller);
  const request = parseBody(createSchema, body);
  if (request.scriptText === undefined && request.scriptFile === undefined) {
    throw badRequest('Give the script data in scriptText or scriptFile');
  }
  if (request.scriptText !== undefined && request.scriptFile !== undefined) {
    throw badRequest('Give the script data in scriptText or scriptFile, not both');
  }
  const text = request.scriptText ?? request.scriptFile ?? '';
  const bytes = Buffer.byteLength(text, 'utf8');
  if (bytes > SCRIPT_MAX_BYTES) {
    throw badRequest(`Script data is ${bytes} bytes; the limit is ${SCRIPT_MAX_BYTES} bytes (16 KB)`);
  }
  const sameName = [...core.world.scripts.values()].some(
    (script) => script.accountId === user.accountId && script.name === request.scriptName,
  );
  if (sameName) throw conflict(`A script named "${request.scriptName}" already exists`);
  const machine =
    request.machineId === undefined ? undefined : visibleMachine(core, caller, request.machineId);
  if (machine && !canManageMachine(core, user, machine)) {
    throw forbidden("Only the machine's owner or an administrator of its team can assign it a script");
  }
  const team = core.world.accounts.get(user.accountId)?.kind === 'team';
  const script: ScriptRecord = {
    id: core.ids.next('sc'),
    name: request.scriptName,
    description: request.scriptDescription ?? null,
    text,
    ownerType: team ? 'team' : 'user',
    ownerId: team ? user.accountId : user.id,
    accountId: user.accountId,
    creatorId: user.id,
    isEnabled: request.isEnabled ?? true,
    runOnce: request.runOnce ?? false,
    dtCreated: core.now(),
  };
  core.world.scripts.set(script.id, script);
  if (machine) machine.scriptId = script.id;
  return json(scriptView(script));
}

const SCRIPT_FILTERS = viewFields<ReturnType<typeof scriptView>>({
  id: 'string',
  ownerType: 'string',
  ownerId: 'string',
  name: 'string',
  description: 'string',
  dtCreated: 'string',
  isEnabled: 'boolean',
  runOnce: 'boolean',
});

function listScripts({ core, caller, query }: RequestContext): Reply {
  const user = requireUser(caller);
  const matches = filterFromQuery(query, SCRIPT_FILTERS);
  const views = [...core.world.scripts.values()]
    .filter((script) => script.accountId === user.accountId)
    .map(scriptView);
  return json(views.filter(matches));
}

function showScript({ core, caller, query }: RequestContext): Reply {
  const script = visibleScript(core, requireUser(caller), requiredQuery(query, 'scriptId'));
  const now = core.now();
  const machines = [...core.world.machines.values()]
    .filter((machine) => machine.scriptId === script.id)
    .map((machine) => {
      // dtLastRun changes when a boot completes, so the machine must be brought up to date first.
      settleMachine(machine, now);
      return { machineId: machine.id, dtLastRun: machine.dtLastRun === null ? null : iso(machine.dtLastRun) };
    });
  return json({ ...scriptView(script), machines });
}

function scriptText({ core, caller, query }: RequestContext): Reply {
  return json(visibleScript(core, requireUser(caller), requiredQuery(query, 'scriptId')).text);
}

function destroyScript({ core, caller, params }: RequestContext): Reply {
  const user = requireUser(caller);
  const script = visibleScript(core, user, params.scriptId ?? '');
  if (script.creatorId !== user.id && user.role !== 'admin') {
    throw forbidden('Only the script’s creator or an account administrator can destroy it');
  }
  core.world.scripts.delete(script.id);
  for (const machine of core.world.machines.values()) {
    if (machine.scriptId === script.id) machine.scriptId = null;
  }
  return noContent();
}

export const scriptRoutes: readonly Route[] = [
  { method: 'POST', path: '/scripts/createScript', access: 'user', handle: createScript },
  { method: 'GET', path: '/scripts/getScripts', access: 'user', handle: listScripts },
  { method: 'GET', path: '/scripts/getScript', access: 'user', handle: showScript },
  { method: 'GET', path: '/scripts/getScriptText', access: 'user', handle: scriptText },
  { method: 'POST', path: '/scripts/:scriptId/destroy', access: 'user', handle: destroyScript },
];
