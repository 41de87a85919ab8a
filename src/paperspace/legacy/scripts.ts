// Startup scripts: create (from text or a local file), destroy, list, show and text.
import { z } from 'zod';
import {
  createScriptParamsSchema,
  parseRequest,
  scriptIdSchema,
  scriptListFiltersSchema,
} from '../request-params.js';
import type { ScriptsResource } from '../resources.js';
import { acknowledgementSchema, scriptListSchema, scriptSchema, scriptTextSchema } from '../schemas.js';
import { readScriptFile } from '../script-file.js';
import { type ResourceContext, segment } from './context.js';

// Built once: zod compiles a schema on its first parse, which costs far more than the parse itself.
const scriptIdParamsSchema = z.object({ scriptId: scriptIdSchema });

export function createScriptsResource({ core, restUrl }: ResourceContext): ScriptsResource {
  const scriptSubject = (id: string) => ({ kind: 'script', id });
  const validId = (scriptId: string, operation: string, action: string) =>
    parseRequest(scriptIdParamsSchema, { scriptId }, operation, action).scriptId;

  return {
    async create(params, options) {
      const action = `create script ${params?.scriptName ?? ''}`.trim();
      const { scriptFile, ...fields } = parseRequest(
        createScriptParamsSchema,
        params,
        'scripts.create',
        action,
      );
      const scriptText =
        scriptFile === undefined ? fields.scriptText : await readScriptFile(scriptFile, action);
      const response = await core.send({
        ...options,
        operation: 'scripts.create',
        action,
        method: 'POST',
        url: restUrl('/scripts/createScript'),
        body: { ...fields, scriptText },
        credential: 'apiKey',
        schema: scriptSchema,
        idempotent: false,
      });
      return response.data;
    },

    async destroy(scriptId, options) {
      const action = `delete script ${scriptId}`;
      const id = validId(scriptId, 'scripts.destroy', action);
      await core.send({
        ...options,
        operation: 'scripts.destroy',
        action,
        method: 'POST',
        url: restUrl(`/scripts/${segment(id)}/destroy`),
        credential: 'apiKey',
        schema: acknowledgementSchema,
        anySuccessBody: true,
        idempotent: false,
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
      const id = validId(scriptId, 'scripts.show', action);
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
      const id = validId(scriptId, 'scripts.text', action);
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
