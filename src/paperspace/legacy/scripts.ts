// Startup scripts: create (from text or a local file), destroy, list, show and text.
import { segment } from '../path-ids.js';
import type { ScriptsResource } from '../resources.js';
import { scriptListSchema, scriptSchema, scriptTextSchema } from '../schemas.js';
import { askAboutScript, askScriptList } from '../script-requests.js';
import { readScriptToCreate } from '../script-to-create.js';
import { sendChange } from '../send-change.js';
import type { ResourceContext } from './context.js';

export function createScriptsResource({ core, restUrl }: ResourceContext): ScriptsResource {
  return {
    async create(params, options) {
      const { request, fields } = await readScriptToCreate(params);
      const response = await core.send({
        ...options,
        ...request,
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
      const { id, request } = askAboutScript('destroy', scriptId);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'POST',
        url: restUrl(`/scripts/${segment(id)}/destroy`),
        credential: 'apiKey',
      });
    },

    async list(filters = {}, options) {
      const { request, filters: query } = askScriptList(filters);
      const response = await core.send({
        ...options,
        ...request,
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
      const { id, request } = askAboutScript('show', scriptId);
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: restUrl('/scripts/getScript'),
        query: { scriptId: id },
        credential: 'apiKey',
        schema: scriptSchema,
        idempotent: true,
      });
      return response.data;
    },

    async text(scriptId, options) {
      const { id, request } = askAboutScript('text', scriptId);
      const response = await core.send({
        ...options,
        ...request,
        method: 'GET',
        url: restUrl('/scripts/getScriptText'),
        query: { scriptId: id },
        credential: 'apiKey',
        schema: scriptTextSchema,
        idempotent: true,
      });
      return response.data;
    },
  };
}
