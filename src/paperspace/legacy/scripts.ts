// Startup scripts: create (from text or a local file), destroy, list, show and text.
import { readFile, stat } from 'node:fs/promises';
import { z } from 'zod';
import { SCRIPT_MAX_BYTES } from '../constants.js';
import { RequestValidationError } from '../errors.js';
import type { RequestOptions } from '../http.js';
import {
  type CreateScriptParams,
  createScriptParamsSchema,
  parseRequest,
  type ScriptListFilters,
  scriptIdSchema,
  scriptListFiltersSchema,
  scriptSizeProblem,
} from '../request-params.js';
import {
  acknowledgementSchema,
  type Script,
  scriptListSchema,
  scriptSchema,
  scriptTextSchema,
} from '../schemas.js';
import { type ResourceContext, segment } from './context.js';

export interface ScriptsResource {
  /**
   * `scriptFile` is a path on this machine: the client reads it and sends its content as
   * `scriptText` (see below). Either `scriptText` or `scriptFile` is required, within 16 KB.
   */
  create(params: CreateScriptParams, options?: RequestOptions): Promise<Script>;
  destroy(scriptId: string, options?: RequestOptions): Promise<void>;
  list(filters?: ScriptListFilters, options?: RequestOptions): Promise<Script[]>;
  /** The script with the machines it is assigned to, without its text. */
  show(scriptId: string, options?: RequestOptions): Promise<Script>;
  text(scriptId: string, options?: RequestOptions): Promise<string>;
}

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

/**
 * The contract's `scriptFile` is "a path to a file with the script data": a path on the caller's
 * machine, which means nothing to the server. The client reads the file here and sends its
 * content in `scriptText`, the one body field that carries script data, so the 16 KB limit is
 * checked on exactly the bytes that will be sent.
 */
export async function readScriptFile(path: string, action: string): Promise<string> {
  const fail = (message: string) =>
    new RequestValidationError('scripts.create', action, [{ field: 'scriptFile', message }]);
  let content: string;
  try {
    const info = await stat(path);
    if (!info.isFile()) throw fail(`"${path}" is not a file`);
    // Checked before reading, so a huge file is refused without loading it.
    if (info.size > SCRIPT_MAX_BYTES) {
      throw fail(`is ${info.size} bytes; Paperspace limits a script to 16 KB (${SCRIPT_MAX_BYTES} bytes)`);
    }
    content = await readFile(path, 'utf8');
  } catch (error) {
    if (error instanceof RequestValidationError) throw error;
    const code = (error as { code?: unknown }).code;
    throw fail(`"${path}" cannot be read (${typeof code === 'string' ? code : 'unreadable'})`);
  }
  if (content.length === 0) throw fail(`"${path}" is empty`);
  const problem = scriptSizeProblem(content);
  if (problem) throw fail(problem);
  return content;
}
