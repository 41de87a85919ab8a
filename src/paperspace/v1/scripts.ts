// Startup scripts in v1 (`/startup-scripts`). v1 never gives a script's text back, so `text` refuses
// with a clear error; the dialect declares `scriptText: false` so the bot says so before asking.
import { PaperspaceError } from '../errors.js';
import { segment } from '../path-ids.js';
import type { ScriptsResource } from '../resources.js';
import { askAboutScript, askScriptList } from '../script-requests.js';
import { readScriptToCreate } from '../script-to-create.js';
import { sendChange } from '../send-change.js';
import type { V1Context } from './context.js';
import { scriptFromV1 } from './mapping.js';
import { v1All } from './pages.js';
import { v1ScriptSchema } from './wire.js';

export function createV1ScriptsResource(context: V1Context): ScriptsResource {
  const { core, url } = context;
  const teamId = async () => (await context.session()).team.id;

  return {
    async create(params, options) {
      const { request, fields } = await readScriptToCreate(params);
      const response = await core.send({
        ...options,
        ...request,
        method: 'POST',
        url: url('/startup-scripts'),
        body: { name: fields.scriptName, script: fields.scriptText, isRunOnce: fields.runOnce },
        credential: 'bearerKey',
        schema: v1ScriptSchema,
        idempotent: false,
      });
      const created = scriptFromV1(response.data, await teamId());
      if (fields.machineId === undefined) return created;
      // The contract assigned a script in its create; v1 assigns it with its own call.
      const assigned = await core
        .send({
          ...options,
          operation: 'scripts.assign',
          action: `assign script ${created.name} to machine ${fields.machineId}`,
          method: 'POST',
          url: url(`/startup-scripts/${segment(created.id)}/assign`),
          body: { machineId: fields.machineId },
          credential: 'bearerKey',
          schema: v1ScriptSchema,
          idempotent: true,
          subject: { kind: 'machine', id: fields.machineId },
        })
        .catch((error: unknown) => {
          const reason = error instanceof Error ? error.message : String(error);
          throw new PaperspaceError(
            `Script ${created.name} (${created.id}) was created, but not assigned to machine ${fields.machineId}: ${reason}`,
            'scripts.create',
            { cause: error },
          );
        });
      return scriptFromV1(assigned.data, created.ownerId);
    },

    async destroy(scriptId, options) {
      const { id, request } = askAboutScript('destroy', scriptId);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'DELETE',
        url: url(`/startup-scripts/${segment(id)}`),
        credential: 'bearerKey',
      });
    },

    async list(filters = {}, options) {
      const { request, filters: wanted } = askScriptList(filters);
      const owner = await teamId();
      const scripts = await v1All(
        context,
        {
          ...options,
          ...request,
          path: '/startup-scripts',
          ...(wanted.name === undefined ? {} : { query: { name: wanted.name } }),
          item: v1ScriptSchema,
        },
        (script) => scriptFromV1(script, owner),
      );
      const fields = Object.entries(wanted).filter(([, value]) => value !== undefined);
      return scripts.filter((script) =>
        fields.every(
          ([field, value]) => String((script as Record<string, unknown>)[field]) === String(value),
        ),
      );
    },

    async show(scriptId, options) {
      const { id, request } = askAboutScript('show', scriptId);
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: url(`/startup-scripts/${segment(id)}`),
        credential: 'bearerKey',
        schema: v1ScriptSchema,
        idempotent: true,
      });
      return scriptFromV1(response.data, await teamId());
    },

    async text(scriptId) {
      throw new PaperspaceError(
        `Paperspace's v1 API does not give the text of a script back, so script ${scriptId} cannot be shown. ` +
          'Keep a copy of your scripts; the Paperspace console can edit them.',
        'scripts.text',
      );
    },
  };
}
