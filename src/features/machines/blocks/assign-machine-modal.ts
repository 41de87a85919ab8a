// Assign (card menu, for an administrator of the machine's team): the teammate who is to own the
// machine. Its alerts then go to them, and its cost counts in their spend.
import type { ModalView } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import { field, input, modal, note, placeholder } from '../../../slack/block-kit/modal-kit.js';
import { encodeMachineModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { nameMrkdwn } from '../../../slack/block-kit/text.js';
import { readString, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const AssignMachineFields = { owner: field('machine_owner') } as const;

export function assignMachineModal(machine: Machine, context: ModalContext = {}): ModalView {
  return modal({
    callbackId: CallbackId.assignMachine,
    title: 'Assign machine',
    submit: 'Assign',
    privateMetadata: encodeMachineModalMetadata(machine, context),
    blocks: [
      note(
        `Who owns ${nameMrkdwn(machine.name)}: its forgotten-machine alerts go to them, and its cost counts ` +
          'in their spend. They and the previous owner are told.',
      ),
      input(AssignMachineFields.owner, 'Owner', {
        type: 'users_select',
        placeholder: placeholder('Choose a teammate'),
      }),
    ],
  });
}

/** The Slack user chosen, if any. */
export function readAssignMachineSubmission(values: ViewStateValues): string | undefined {
  return readString(values, AssignMachineFields.owner);
}
