// Access (card overflow, /ps access): grant or revoke a user's access to one machine. The person is
// named as a Slack user (the handler looks up their linked Paperspace user) or by Paperspace user id.
import type { ModalView } from '@slack/types';
import type { Machine } from '../../../paperspace/schemas.js';
import {
  field,
  input,
  modal,
  note,
  placeholder,
  radioElement,
  textElement,
} from '../../../slack/block-kit/modal-kit.js';
import { encodeMachineModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { nameMrkdwn, option } from '../../../slack/block-kit/text.js';
import { readString, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const MachineAccessFields = {
  slackUser: field('slack_user'),
  paperspaceUserId: field('paperspace_user_id'),
  change: field('access_change'),
} as const;

const MachineAccessOptions = { grant: 'grant', revoke: 'revoke' } as const;

export function machineAccessModal(machine: Machine, context: ModalContext = {}): ModalView {
  return modal({
    callbackId: CallbackId.machineAccess,
    title: 'Machine access',
    submit: 'Apply',
    privateMetadata: encodeMachineModalMetadata(machine, context),
    blocks: [
      note(`Who may use ${nameMrkdwn(machine.name)}. Name a Slack user *or* give a Paperspace user id.`),
      input(
        MachineAccessFields.slackUser,
        'Slack user',
        { type: 'users_select', placeholder: placeholder('Choose a person') },
        {
          optional: true,
          hint: 'They must have linked their Paperspace account with /ps login.',
        },
      ),
      input(
        MachineAccessFields.paperspaceUserId,
        'Paperspace user id',
        textElement({ placeholder: 'the id /ps users shows for them', maxLength: 255 }),
        {
          optional: true,
        },
      ),
      input(
        MachineAccessFields.change,
        'Change',
        radioElement(
          [
            option('Grant access', MachineAccessOptions.grant),
            option('Revoke access', MachineAccessOptions.revoke),
          ],
          MachineAccessOptions.grant,
        ),
      ),
    ],
  });
}

export interface MachineAccessSubmission {
  slackUserId: string | undefined;
  paperspaceUserId: string | undefined;
  /** True to grant, false to revoke; undefined if the submission carried neither. */
  enableAccess: boolean | undefined;
}

const ENABLE_ACCESS: Record<string, boolean> = {
  [MachineAccessOptions.grant]: true,
  [MachineAccessOptions.revoke]: false,
};

export function readMachineAccessSubmission(values: ViewStateValues): MachineAccessSubmission {
  return {
    slackUserId: readString(values, MachineAccessFields.slackUser),
    paperspaceUserId: readString(values, MachineAccessFields.paperspaceUserId),
    enableAccess: ENABLE_ACCESS[readString(values, MachineAccessFields.change) ?? ''],
  };
}
