// What a script request asks, the same in both dialects: the operation, the action its errors name
// and the script it is about, its id or filters checked before anything is sent. Each dialect then
// says how it goes over the wire. A script to create is read in script-to-create.ts.
import { scriptSubject, validScriptId } from './path-ids.js';
import { parseRequest } from './request-params/parse-request.js';
import { type ScriptListFilters, scriptListFiltersSchema } from './request-params/script-params.js';

const ACTIONS = {
  destroy: (id: string) => `delete script ${id}`,
  show: (id: string) => `show script ${id}`,
  text: (id: string) => `read the text of script ${id}`,
};

/** A request about one script: its id checked, and the script named in a 404. */
export function askAboutScript(what: keyof typeof ACTIONS, scriptId: string) {
  const operation = `scripts.${what}`;
  const action = ACTIONS[what](scriptId);
  const id = validScriptId(scriptId, operation, action);
  return { id, request: { operation, action, subject: scriptSubject(id) } };
}

export function askScriptList(filters: ScriptListFilters) {
  const request = { operation: 'scripts.list', action: 'list scripts' };
  return {
    request,
    filters: parseRequest(scriptListFiltersSchema, filters, request.operation, request.action),
  };
}
