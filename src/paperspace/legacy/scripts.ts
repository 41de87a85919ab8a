// Startup scripts: create (from text or a local file), destroy, list, show and text.
import { scriptSubject, segment, validScriptId } from '../path-ids.js';
import { parseRequest } from '../request-params/parse-request.js';
import { scriptListFiltersSchema } from '../request-params/script-params.js';
import type { ScriptsResource } from '../resources.js';
import { scriptListSchema, scriptSchema, scriptTextSchema } from '../schemas.js';
import { readScriptToCreate } from '../script-to-create.js';
import { sendChange } from '../send-change.js';
import type { ResourceContext } from './context.js';

export function createScriptsResource({ core, restUrl }: ResourceContext): ScriptsResource {
  return {
    async create(params, options) {
      const { action, fields } = await readScriptToCreate(params);
      const response = await core.send({
        ...options,
        operation: 'scripts.create',
        action,
        method: 'POST',
        url: restUrl('/scripts/createScript'),
        body: fields,
        credential: 'apiKey',
        schema: scriptSchema,
        idempotent: false,
      });
      return response.data;
    },

    async destroy(scriptId, options) {
      const action = `delete script ${scriptId}`;
      const id = validScriptId(scriptId, 'scripts.destroy', action);
      await sendChange(core, {
        ...options,
        operation: 'scripts.destroy',
        action,
        method: 'POST',
        url: restUrl(`/scripts/${segment(id)}/destroy`),
        credential: 'apiKey',
        subject: scriptSubject(id),
      });
    },

    async list(filters = {}, options) {
      const query = parseRequest(scriptListFiltersSchema, filters, 'scripts.list', 'list scripts');
      const response = await core.send({
        ...options,
        operation: 'scripts.list',
        action: 'list scripts',
        method: 'GET',
        url: restUrl('/scripts/getScripts'),
        query,
        credential: 'apiKey',
        schema: scriptListSchema,
        idempotent: true,
      });
      return response.data;
    },

    async show(scriptId, options) {
      const action = `show script ${scriptId}`;
      const id = validScriptId(scriptId, 'scripts.show', action);
      const response = await core.send({
        ...options,
        operation: 'scripts.show',
        action,
        method: 'GET',
        url: restUrl('/scripts/getScript'),
        query: { scriptId: id },
        credential: 'apiKey',
        schema: scriptSchema,
        idempotent: true,
        subject: scriptSubject(id),
      });
      return response.data;
    },

    async text(scriptId, options) {
      const action = `read the text of script ${scriptId}`;
      const id = validScriptId(scriptId, 'scripts.text', action);
      const response = await core.send({
        ...options,
        operation: 'scripts.text',
        action,
        method: 'GET',
        url: restUrl('/scripts/getScriptText'),
        query: { scriptId: id },
        credential: 'apiKey',
        schema: scriptTextSchema,
        idempotent: true,
        subject: scriptSubject(id),
      });
      return response.data;
    },
  };
}
