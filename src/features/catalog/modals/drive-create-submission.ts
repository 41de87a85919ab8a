// The shared drive form: name, size, region and network checked with the client's schema in the ack;
// then created with the submitter's access token (see create-submission.ts). Paperspace's own
// refusals (not a team administrator, a network outside the region) are shown as it words them.

import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { fieldErrors, submitterOf } from '../../../slack/modal-submission.js';
import type { ListenerRouter } from '../../../slack/router.js';
import {
  CreateDriveFields,
  createDriveFieldBlockIds,
  readCreateDriveSubmission,
} from '../blocks/create-drive-modal.js';
import { createDrive, readDriveForm } from '../drive-changes.js';
import { creatingView, finishCreateInModal } from './create-submission.js';

const TITLE = 'New shared drive';

export function registerDriveCreateSubmission(router: ListenerRouter, deps: ListenerDeps): void {
  router.view(CallbackId.createDrive, async ({ ack, body, view, client }) => {
    const user = submitterOf(body);
    const form = readDriveForm(readCreateDriveSubmission(view.state.values));
    if (!form.ok) {
      await ack({
        response_action: 'errors',
        errors: fieldErrors(
          form.problems,
          createDriveFieldBlockIds,
          view.state.values,
          CreateDriveFields.name.blockId,
        ),
      });
      return;
    }
    const { params } = form;
    await ack({ response_action: 'update', view: creatingView(CallbackId.createDrive, TITLE, 'the drive') });
    await finishCreateInModal({
      deps,
      client,
      viewId: view.id,
      user,
      callbackId: CallbackId.createDrive,
      title: TITLE,
      logger: deps.logger.child({ callbackId: CallbackId.createDrive, user: user.userId }),
      async create(paperspace) {
        const drive = await createDrive(deps.audit, paperspace, user, params);
        return {
          done: `✅ Created shared drive *${escapeMrkdwn(drive.name)}* (\`${escapeMrkdwn(drive.id)}\`).`,
          details: [`${params.sizeGiB} GiB in ${escapeMrkdwn(params.region)} · \`/ps drives\` lists it.`],
        };
      },
    });
  });
}
