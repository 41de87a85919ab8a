// Startup scripts in v1 (`/startup-scripts`). v1 never gives a script's text back, so `text` refuses
// with a clear error; the dialect declares `scriptText: false` so the bot says so before asking.
import { PaperspaceError } from '../errors.js';
import { scriptSubject, segment, validScriptId } from '../path-ids.js';
import { parseRequest } from '../request-params/parse-request.js';
import { scriptListFiltersSchema } from '../request-params/script-params.js';
import type { ScriptsResource } from '../resources.js';
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
      const { action, fields } = await readScriptToCreate(params);
      const response = await core.send({
        ...options,
        operation: 'scripts.create',
        action,
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
      const action = `delete script ${scriptId}`;
      const id = validScriptId(scriptId, 'scripts.destroy', action);
      await sendChange(core, {
        ...options,
        operation: 'scripts.destroy',
        action,
        method: 'DELETE',
        url: url(`/startup-scripts/${segment(id)}`),
        credential: 'bearerKey',
        subject: scriptSubject(id),
      });
    },

    async list(filters = {}, options) {
      const wanted = parseRequest(scriptListFiltersSchema, filters, 'scripts.list', 'list scripts');
      const owner = await teamId();
      const scripts = await v1All(
        context,
        {
          ...options,
          operation: 'scripts.list',
          action: 'list scripts',
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
      const action = `show script ${scriptId}`;
      const id = validScriptId(scriptId, 'scripts.show', action);
      const response = await core.send({
        ...options,
        operation: 'scripts.show',
        action,
        method: 'GET',
        url: url(`/startup-scripts/${segment(id)}`),
        credential: 'bearerKey',
        schema: v1ScriptSchema,
        idempotent: true,
        subject: scriptSubject(id),
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
