// Reads a submitted create-machine form into the API client's create parameters, raw: the service
// validates them (and adds teamId for team accounts). Unfilled optional fields are left out.
import { RESTORE_POINT_FREQUENCIES } from '../../../paperspace/constants.js';
import {
  definedEntries,
  hasField,
  readCheckbox,
  readChecked,
  readNumber,
  readSecret,
  readString,
  type ViewStateValues,
} from '../../../slack/block-kit/view-state.js';
import { CreateMachineFields as F, CreateMachineOptions as O } from './create-machine-fields.js';

/** The block that shows an error about each create parameter (for `response_action: 'errors'`). */
export const createMachineFieldBlockIds: Record<string, string> = {
  region: F.region.blockId,
  machineType: F.machineType.blockId,
  templateId: F.template.blockId,
  size: F.size.blockId,
  machineName: F.machineName.blockId,
  networkId: F.network.blockId,
  scriptId: F.script.blockId,
  assignPublicIp: F.publicIp.blockId,
  dynamicPublicIp: F.publicIp.blockId,
  startOnCreate: F.startOnCreate.blockId,
  userId: F.existingUser.blockId,
  email: F.newUserEmail.blockId,
  password: F.newUserPassword.blockId,
  firstName: F.newUserFirstName.blockId,
  lastName: F.newUserLastName.blockId,
  takeInitialSnapshot: F.snapshot.blockId,
  markSnapshotAsRestorePoint: F.snapshot.blockId,
  restorePointFrequency: F.snapshot.blockId,
  enableNvlink: F.nvlink.blockId,
  notificationEmail: F.notificationEmail.blockId,
};

const [RESTORE_ON_SHUTDOWN] = RESTORE_POINT_FREQUENCIES;

export function readCreateMachineSubmission(values: ViewStateValues): Record<string, unknown> {
  const publicIp = readString(values, F.publicIp);
  const snapshot = readChecked(values, F.snapshot);
  const hasSnapshotField = hasField(values, F.snapshot);
  const markAsRestorePoint = snapshot.includes(O.markAsRestorePoint);
  return definedEntries({
    region: readString(values, F.region),
    machineType: readString(values, F.machineType),
    templateId: readString(values, F.template),
    size: readNumber(values, F.size),
    machineName: readString(values, F.machineName),
    networkId: readString(values, F.network),
    scriptId: readString(values, F.script),
    assignPublicIp: publicIp === O.publicIpStatic ? true : undefined,
    dynamicPublicIp: publicIp === O.publicIpDynamic ? true : undefined,
    startOnCreate: readCheckbox(values, F.startOnCreate, O.startOnCreate),
    userId: readString(values, F.existingUser),
    email: readString(values, F.newUserEmail),
    password: readSecret(values, F.newUserPassword),
    firstName: readString(values, F.newUserFirstName),
    lastName: readString(values, F.newUserLastName),
    takeInitialSnapshot: hasSnapshotField ? snapshot.includes(O.takeInitialSnapshot) : undefined,
    markSnapshotAsRestorePoint: hasSnapshotField ? markAsRestorePoint : undefined,
    restorePointFrequency: markAsRestorePoint ? RESTORE_ON_SHUTDOWN : undefined,
    enableNvlink: readCheckbox(values, F.nvlink, O.enableNvlink),
    notificationEmail: readString(values, F.notificationEmail),
  });
}
