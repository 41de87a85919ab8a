// Settings (card overflow, /ps update): the updatable fields of a machine, prefilled with its
// current values. The machine travels in private_metadata. Number inputs accept every value the API
// holds (0 included): Slack refuses a whole view whose initial value is outside its own bounds.
import type { ModalView } from '@slack/types';
import { AUTO_SNAPSHOT_FREQUENCIES } from '../../../paperspace/constants.js';
import type { Machine } from '../../../paperspace/schemas.js';
import {
  checkboxesElement,
  field,
  input,
  modal,
  numberElement,
  selectElement,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeMachineModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { option } from '../../../slack/block-kit/text.js';
import {
  definedEntries,
  readCheckbox,
  readNumber,
  readString,
  type ViewStateValues,
} from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const UpdateMachineFields = {
  machineName: field('machine_name'),
  shutdownTimeout: field('shutdown_timeout'),
  shutdownOptions: field('shutdown_options'),
  autoSnapshot: field('auto_snapshot'),
  autoSnapshotFrequency: field('auto_snapshot_frequency'),
  autoSnapshotSaveCount: field('auto_snapshot_save_count'),
  publicIp: field('public_ip'),
} as const;

const UpdateMachineOptions = {
  shutdownTimeoutForces: 'force',
  performAutoSnapshot: 'perform',
  dynamicPublicIp: 'dynamic',
  assignPublicIp: 'assign',
} as const;

const FREQUENCY_WORDS: Record<string, string> = { hour: 'Every hour', day: 'Every day', week: 'Every week' };

export function updateMachineModal(machine: Machine, context: ModalContext = {}): ModalView {
  const F = UpdateMachineFields;
  const O = UpdateMachineOptions;
  const frequencies = AUTO_SNAPSHOT_FREQUENCIES.map((frequency) =>
    option(FREQUENCY_WORDS[frequency] ?? frequency, frequency),
  );
  return modal({
    callbackId: CallbackId.updateMachine,
    title: 'Machine settings',
    submit: 'Save',
    privateMetadata: encodeMachineModalMetadata(machine, context),
    blocks: [
      input(F.machineName, 'Name', textElement({ initial: machine.name, maxLength: 255 })),
      input(
        F.shutdownTimeout,
        'Shut down after (hours)',
        numberElement({ initial: machine.shutdownTimeoutInHours, min: 0 }),
        {
          optional: true,
          hint: 'Hours with nobody logged in through the remote-access client before the machine shuts down.',
        },
      ),
      input(
        F.shutdownOptions,
        'Shutdown',
        checkboxesElement(
          [option('Force shutdown at the timeout', O.shutdownTimeoutForces, 'Even if a client is connected')],
          machine.shutdownTimeoutForces ? [O.shutdownTimeoutForces] : [],
        ),
        { optional: true },
      ),
      input(
        F.autoSnapshot,
        'Auto snapshots',
        checkboxesElement(
          [option('Take snapshots automatically', O.performAutoSnapshot)],
          machine.performAutoSnapshot ? [O.performAutoSnapshot] : [],
        ),
        { optional: true },
      ),
      input(
        F.autoSnapshotFrequency,
        'Snapshot frequency',
        selectElement(frequencies, machine.autoSnapshotFrequency),
        {
          optional: true,
        },
      ),
      input(
        F.autoSnapshotSaveCount,
        'Snapshots to keep',
        numberElement({ initial: machine.autoSnapshotSaveCount, min: 0 }),
        {
          optional: true,
        },
      ),
      input(
        F.publicIp,
        'Public IP',
        checkboxesElement(
          [
            option('Dynamic public IP', O.dynamicPublicIp, 'Assigned on start, released on stop'),
            option('Assign a new static public IP', O.assignPublicIp),
          ],
          machine.dynamicPublicIp ? [O.dynamicPublicIp] : [],
        ),
        { optional: true },
      ),
    ],
  });
}

/** The block that shows an error about each update parameter. */
export const updateMachineFieldBlockIds: Record<string, string> = {
  machineName: UpdateMachineFields.machineName.blockId,
  shutdownTimeoutInHours: UpdateMachineFields.shutdownTimeout.blockId,
  shutdownTimeoutForces: UpdateMachineFields.shutdownOptions.blockId,
  performAutoSnapshot: UpdateMachineFields.autoSnapshot.blockId,
  autoSnapshotFrequency: UpdateMachineFields.autoSnapshotFrequency.blockId,
  autoSnapshotSaveCount: UpdateMachineFields.autoSnapshotSaveCount.blockId,
  dynamicPublicIp: UpdateMachineFields.publicIp.blockId,
  assignPublicIp: UpdateMachineFields.publicIp.blockId,
};

/**
 * The update parameters, raw. Checkboxes are sent as true or false (unticking turns a setting off);
 * a blank number or frequency is left out, keeping the current value. assignPublicIp is an action,
 * not a setting, so it is sent only when ticked.
 */
export function readUpdateMachineSubmission(values: ViewStateValues): Record<string, unknown> {
  const F = UpdateMachineFields;
  const O = UpdateMachineOptions;
  return definedEntries({
    machineName: readString(values, F.machineName),
    shutdownTimeoutInHours: readNumber(values, F.shutdownTimeout),
    shutdownTimeoutForces: readCheckbox(values, F.shutdownOptions, O.shutdownTimeoutForces),
    performAutoSnapshot: readCheckbox(values, F.autoSnapshot, O.performAutoSnapshot),
    autoSnapshotFrequency: readString(values, F.autoSnapshotFrequency),
    autoSnapshotSaveCount: readNumber(values, F.autoSnapshotSaveCount),
    dynamicPublicIp: readCheckbox(values, F.publicIp, O.dynamicPublicIp),
    assignPublicIp: readCheckbox(values, F.publicIp, O.assignPublicIp) ? true : undefined,
  });
}
