// Destroy (card overflow, /ps destroy): irreversible, so the person types the machine's name.
import type { ModalView } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import {
  checkboxesElement,
  field,
  input,
  modal,
  note,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeMachineModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { escapeMrkdwn, nameMrkdwn, option } from '../../../slack/block-kit/text.js';
import { readCheckbox, readSecret, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const DestroyMachineFields = {
  confirmName: field('confirm_name'),
  releasePublicIp: field('release_public_ip'),
} as const;

export const DestroyMachineOptions = { releasePublicIp: 'release' } as const;

/** `releasePublicIp` ticks the release box up front (`/ps destroy <machine> --release-ip`). */
export function destroyMachineModal(
  machine: Machine,
  context: ModalContext = {},
  options: { releasePublicIp?: boolean } = {},
): ModalView {
  const name = nameMrkdwn(machine.name, 'plain');
  const ip = machine.publicIpAddress ? ` (now ${escapeMrkdwn(machine.publicIpAddress)})` : '';
  return modal({
    callbackId: CallbackId.destroyMachine,
    title: 'Destroy machine',
    submit: 'Destroy',
    privateMetadata: encodeMachineModalMetadata(machine, context),
    blocks: [
      note(
        `🛑 *This destroys ${name} for good.* It shuts down at once, its disk and every snapshot made ` +
          'from it are deleted, and everyone with access loses it. This cannot be undone.',
      ),
      input(
        DestroyMachineFields.confirmName,
        `Type ${machine.name} to confirm`,
        textElement({ placeholder: machine.name, maxLength: 3000 }),
      ),
      input(
        DestroyMachineFields.releasePublicIp,
        'Public IP',
        checkboxesElement(
          [
            option(
              'Release the public IP',
              DestroyMachineOptions.releasePublicIp,
              `Otherwise it stays on the account${ip}`,
            ),
          ],
          options.releasePublicIp ? [DestroyMachineOptions.releasePublicIp] : [],
        ),
        { optional: true },
      ),
    ],
  });
}

export interface DestroyMachineSubmission {
  typedName: string;
  releasePublicIp: boolean;
}

export function readDestroyMachineSubmission(values: ViewStateValues): DestroyMachineSubmission {
  return {
    typedName: readSecret(values, DestroyMachineFields.confirmName) ?? '',
    releasePublicIp:
      readCheckbox(values, DestroyMachineFields.releasePublicIp, DestroyMachineOptions.releasePublicIp) ??
      false,
  };
}

/**
 * The error to show on the confirmation field (keyed by DestroyMachineFields.confirmName.blockId),
 * or undefined when the typed name matches. Surrounding spaces are forgiven; case is not.
 */
export function destroyConfirmationError(typedName: string, machineName: string): string | undefined {
  if (typedName.trim() === machineName.trim()) return undefined;
  return `That is not the machine's name. Type ${machineName} exactly to destroy it.`;
}
