// Creating and deleting startup scripts for a person, with their own client; both are audited.
// The form is checked with the client's own request schema (the 16 KB UTF-8 limit included), so a
// problem is shown under its field before anything is sent.
import type { PaperspaceClient } from '../../paperspace/client.js';
import {
  type CreateScriptParams,
  createScriptParamsSchema,
} from '../../paperspace/request-params/script-params.js';
import type { Script } from '../../paperspace/schemas.js';
import { type FormReading, readForm } from '../../slack/block-kit/form-problems.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { SlackUser } from '../../store/slack-user.js';

const SUBJECTS = {
  scriptName: 'The name',
  scriptDescription: 'The description',
  scriptText: 'The script',
  isEnabled: 'Enabled',
  runOnce: 'Run once',
  machineId: 'The machine',
};

/** The create parameters from a submitted form, or what is wrong with them per parameter. */
export function readScriptForm(raw: Record<string, unknown>): FormReading<CreateScriptParams> {
  // The form has no file upload, so "scriptText or scriptFile" means the text here.
  if (raw.scriptText === undefined) return { ok: false, problems: { scriptText: 'Paste the script text.' } };
  return readForm(createScriptParamsSchema, raw, SUBJECTS);
}

export function createScript(
  audit: AuditTrail,
  client: PaperspaceClient,
  user: SlackUser,
  params: CreateScriptParams,
): Promise<Script> {
  return audit.run(
    { user, action: 'script.create' },
    () => client.scripts.create(params),
    (script) => script.id,
  );
}

export function deleteScript(
  audit: AuditTrail,
  client: PaperspaceClient,
  user: SlackUser,
  scriptId: string,
): Promise<void> {
  return audit.run({ user, action: 'script.delete', resourceId: scriptId }, () =>
    client.scripts.destroy(scriptId),
  );
}
