// The startup script form: checked with the client's schema (the 16 KB UTF-8 limit included) and for
// a name another script has, in the ack, so a problem shows under its field with everything typed kept; then created (see
// create-submission.ts for why the create itself is answered after the ack).

import type { ParameterProblems } from '../../../slack/block-kit/form-problems.js';
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { machineMention } from '../blocks/catalog.js';
import {
  CreateScriptFields,
  createScriptFieldBlockIds,
  readCreateScriptSubmission,
} from '../blocks/create-script-modal.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { machineNames } from '../machine-names.js';
import { createScript, readScriptForm } from '../script-changes.js';
import { registerCreateForm } from './create-submission.js';

export function registerScriptCreateSubmission(router: ListenerRouter, deps: CatalogDeps): void {
  registerCreateForm(router, deps, {
    callbackId: CallbackId.createScript,
    title: 'New startup script',
    what: 'the script',
    read: (values) => readScriptForm(readCreateScriptSubmission(values)),
    fieldBlockIds: createScriptFieldBlockIds,
    fallbackBlockId: CreateScriptFields.text.blockId,
    conflictParameter: 'scriptName',
    // Paperspace refuses a second script of the same name; said in the ack, not after it.
    async check(paperspace, params, options): Promise<ParameterProblems> {
      const scripts = await paperspace.scripts.list({}, options);
      if (!scripts.some((script) => script.name === params.scriptName)) return {};
      return {
        scriptName: `A startup script named "${params.scriptName}" already exists; choose another name.`,
      };
    },
    async create(paperspace, user, params) {
      const script = await createScript(deps.audit, paperspace, user, params);
      const names = params.machineId
        ? await machineNames(paperspace, deps.logger)
        : new Map<string, string>();
      return {
        done: `✅ Created startup script ${nameMrkdwn(script.name)} (\`${escapeMrkdwn(script.id)}\`).`,
        details: [
          [
            script.isEnabled ? 'Enabled' : 'Disabled',
            script.runOnce ? 'runs on first boot only' : 'runs on every boot',
            params.machineId
              ? `assigned to ${machineMention(params.machineId, names)}`
              : 'not assigned to a machine',
          ].join(' · '),
          `\`/ps script show ${escapeMrkdwn(script.id)}\` shows it.`,
        ],
      };
    },
  });
}
