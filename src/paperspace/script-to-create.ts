// A script to create, as both dialects send it: its parameters checked, and its text in scriptText
// whether it was typed or given as a file on the bot's machine.
import { readFile, stat } from 'node:fs/promises';
import { SCRIPT_MAX_BYTES } from './constants.js';
import { RequestValidationError } from './errors.js';
import { parseRequest } from './request-params/parse-request.js';
import {
  type CreateScriptParams,
  createScriptParamsSchema,
  scriptSizeProblem,
} from './request-params/script-params.js';

/** The checked create parameters with the script's text, and what the request asks. */
export async function readScriptToCreate(params: CreateScriptParams) {
  const action = `create script ${params?.scriptName ?? ''}`.trim();
  const { scriptFile, ...fields } = parseRequest(createScriptParamsSchema, params, 'scripts.create', action);
  const scriptText = scriptFile === undefined ? fields.scriptText : await readScriptFile(scriptFile, action);
  return { request: { operation: 'scripts.create', action }, fields: { ...fields, scriptText } };
}

/**
 * The contract's `scriptFile` is "a path to a file with the script data": a path on the caller's
 * machine, which means nothing to the server. The client reads the file here and sends its
 * content in `scriptText`, the one body field that carries script data, so the 16 KB limit is
 * checked on exactly the bytes that will be sent.
 */
async function readScriptFile(path: string, action: string): Promise<string> {
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
