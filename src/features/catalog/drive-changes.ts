// Creating and deleting shared drives for a person, with their own client and access token; both are
// audited. Only team administrators may do either: Paperspace's refusal reaches the person as it is.

import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import {
  type CreateSharedDriveParams,
  createSharedDriveParamsSchema,
} from '../../paperspace/request-params/shared-drive-params.js';
import type { SharedDrive } from '../../paperspace/schemas.js';
import { type FormReading, readForm } from '../../slack/block-kit/form-problems.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { SlackUser } from '../../store/slack-user.js';

/** The drive form's inputs, named as the contract's CreateSharedDriveInput names them. */
export interface DriveFormInput {
  name?: unknown;
  /** GiB. */
  size?: unknown;
  /** The region's name. */
  regionId?: unknown;
  networkId?: unknown;
}

const SUBJECTS = { name: 'The name', sizeGiB: 'The size', region: 'The region', networkId: 'The network' };
/** Schema parameter -> form input name. */
const FORM_NAMES: Record<string, keyof DriveFormInput> = {
  name: 'name',
  sizeGiB: 'size',
  region: 'regionId',
  networkId: 'networkId',
};

/** The create parameters, or what is wrong per form input (name, size, regionId, networkId). */
export function readDriveForm(input: DriveFormInput): FormReading<CreateSharedDriveParams> {
  return readForm(
    createSharedDriveParamsSchema,
    { name: input.name, sizeGiB: input.size, region: input.regionId, networkId: input.networkId },
    SUBJECTS,
    FORM_NAMES,
  );
}

export function createDrive(
  audit: AuditTrail,
  client: PaperspaceClient,
  user: SlackUser,
  params: CreateSharedDriveParams,
): Promise<SharedDrive> {
  return audit.run(
    { user, action: 'drive.create' },
    () => client.sharedDrives.create(params),
    (drive) => drive.id,
  );
}

export async function deleteDrive(
  audit: AuditTrail,
  client: PaperspaceClient,
  user: SlackUser,
  driveId: string,
): Promise<void> {
  await audit.run({ user, action: 'drive.delete', resourceId: driveId }, () =>
    client.sharedDrives.delete(driveId),
  );
}

/** The drive with this id among those the person's token may list; a clear error when there is none. */
export async function findDrive(client: PaperspaceClient, driveId: string): Promise<SharedDrive> {
  const drives = await client.sharedDrives.list();
  const drive = drives.find((candidate) => candidate.id === driveId);
  if (drive === undefined) {
    throw new UserFacingError(
      `No shared drive has the id "${driveId}". \`/ps drives\` lists the ones your team has.`,
    );
  }
  return drive;
}
