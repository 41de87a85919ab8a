// The startup script form: checked with the client's schema (the 16 KB UTF-8 limit included) in the
// ack, so a problem shows under its field with everything typed kept; then created (see
// create-submission.ts for why the create itself is answered after the ack).

import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { fieldErrors, submitterOf } from '../../../slack/modal-submission.js';
import type { ListenerRouter } from '../../../slack/router.js';
import {
  CreateScriptFields,
  createScriptFieldBlockIds,
  readCreateScriptSubmission,
} from '../blocks/create-script-modal.js';
import { createScript, readScriptForm } from '../script-changes.js';
import { creatingView, finishCreateInModal } from './create-submission.js';

const TITLE = 'New startup script';

export function registerScriptCreateSubmission(router: ListenerRouter, deps: ListenerDeps): void {
  router.view(CallbackId.createScript, async ({ ack, body, view, client }) => {
    const user = submitterOf(body);
    const form = readScriptForm(readCreateScriptSubmission(view.state.values));
    if (!form.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(
          form.problems,
          createScriptFieldBlockIds,
          view.state.values,
          CreateScriptFields.text.blockId,
        ),
      });
      return;
    }
    const { params } = form;
    await ack({
      response_action: 'update',
      view: creatingView(CallbackId.createScript, TITLE, 'the script'),
    });
    await finishCreateInModal({
      deps,
      client,
      viewId: view.id,
      user,
      callbackId: CallbackId.createScript,
      title: TITLE,
      logger: deps.logger.child({ callbackId: CallbackId.createScript, user: user.userId }),
      async create(paperspace) {
        const script = await createScript(deps.audit, paperspace, user, params);
        return {
          done: `✅ Created startup script *${escapeMrkdwn(script.name)}* (\`${escapeMrkdwn(script.id)}\`).`,
          details: [
            [
              script.isEnabled ? 'Enabled' : 'Disabled',
              script.runOnce ? 'runs on first boot only' : 'runs on every boot',
              params.machineId
                ? `assigned to \`${escapeMrkdwn(params.machineId)}\``
                : 'not assigned to a machine',
            ].join(' · '),
            `\`/ps script show ${escapeMrkdwn(script.id)}\` shows it.`,
          ],
        };
      },
    });
  });
}
