// Deny on a request opens this: an optional reason the requester is told. The request id rides in
// private_metadata and is checked when the form comes back.
import type { ModalView } from '@slack/types';
import { z } from 'zod';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';
import { field, input, modal, note, textElement } from '../../../slack/block-kit/modal-kit.js';
import { CallbackId } from '../../../slack/ids.js';
import type { ApprovalRequest } from '../../../store/approval-requests.js';
import { requestSubject } from './request-messages.js';

export const denyReasonField = field('deny_reason');
const REASON_CHARS = 500;
const metadataSchema = z.object({ requestId: z.string().min(1).max(64) });

export function denyModal(
  request: Pick<ApprovalRequest, 'id' | 'requesterId' | 'kind' | 'machineName'>,
): ModalView {
  return modal({
    callbackId: CallbackId.denyRequest,
    title: 'Deny request',
    submit: 'Deny',
    privateMetadata: JSON.stringify({ requestId: request.id }),
    blocks: [
      note(`Deny <@${request.requesterId}>'s request to ${requestSubject(request)}?`),
      input(
        denyReasonField,
        'Reason (told to them)',
        textElement({ multiline: true, maxLength: REASON_CHARS }),
        {
          optional: true,
        },
      ),
    ],
  });
}

export const denyModalRequestId = (raw: string | undefined) =>
  decodeEncodedValue(metadataSchema, raw ?? '', 'Deny modal private_metadata').requestId;
