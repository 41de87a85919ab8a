// The shared drive form: name, size, region and network checked with the client's schema in the ack,
// and the network's region with the submitter's key; then created with the submitter's access token
// (see create-submission.ts). Paperspace's own refusals (not a team administrator, or a network the
// check could not read in time) put the form back as it words them.

import type { ParameterProblems } from '../../../slack/block-kit/form-problems.js';
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { findNetwork, networkIssues } from '../../machines/create-flow.js';
import {
  CreateDriveFields,
  createDriveFieldBlockIds,
  readCreateDriveSubmission,
} from '../blocks/create-drive-modal.js';
import type { CatalogDeps } from '../catalog-deps.js';
import { createDrive, readDriveForm } from '../drive-changes.js';
import { registerCreateForm } from './create-submission.js';

export function registerDriveCreateSubmission(router: ListenerRouter, deps: CatalogDeps): void {
  registerCreateForm(router, deps, {
    callbackId: CallbackId.createDrive,
    title: 'New shared drive',
    what: 'the drive',
    read: (values) => readDriveForm(readCreateDriveSubmission(values)),
    fieldBlockIds: createDriveFieldBlockIds,
    fallbackBlockId: CreateDriveFields.name.blockId,
    // A network is in one region; one outside the drive's is refused in the ack, not after it.
    async check(paperspace, params, options): Promise<ParameterProblems> {
      const [issue] = networkIssues(params, await findNetwork(paperspace, params.networkId, options));
      return issue === undefined ? {} : { networkId: `The network ${issue.message}.` };
    },
    async create(paperspace, user, params) {
      const drive = await createDrive(deps.audit, paperspace, user, params);
      return {
        done: `✅ Created shared drive ${nameMrkdwn(drive.name)} (\`${escapeMrkdwn(drive.id)}\`).`,
        details: [`${params.sizeGiB} GiB in ${escapeMrkdwn(params.region)} · \`/ps drives\` lists it.`],
      };
    },
  });
}
