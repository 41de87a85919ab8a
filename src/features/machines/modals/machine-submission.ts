// What every machine modal submission needs: who submitted (they act with their own key), where the
// modal came from (private_metadata), field errors keyed by the builder's block ids, and a private way
// to answer after the modal has closed (a view submission has no response_url).
import type { RequestIssue } from '../../../paperspace/errors.js';
import { decodeModalMetadata, type ModalMetadata } from '../../../slack/block-kit/modal-metadata.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import { errorsByBlock, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { type Interaction, type ViewRequest, viewInteraction } from '../../../slack/interaction.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';

export interface MachineSubmission extends Interaction {
  metadata: ModalMetadata;
  values: ViewStateValues;
  /** Answers the submitter alone: ephemeral where the modal was opened, or in their DM. */
  tell(message: SlackMessage): Promise<void>;
  /** Tells the submitter why the work after the ack failed. */
  tellFailure(error: unknown): Promise<void>;
}

export function readSubmission(deps: ListenerDeps, request: ViewRequest): MachineSubmission {
  const metadata = decodeModalMetadata(request.body.view.private_metadata);
  const interaction = viewInteraction(deps, request, metadata.channelId);
  return {
    ...interaction,
    metadata,
    values: request.body.view.state.values,
    tell: interaction.replyPrivately,
    tellFailure: interaction.replyFailure,
  };
}

/** The machine a machine modal is about, from its private_metadata. */
export function machineOf(metadata: ModalMetadata): { id: string; name: string } {
  if (metadata.machineId === undefined || metadata.machineName === undefined) {
    throw new Error('Machine modal private_metadata names no machine');
  }
  return { id: metadata.machineId, name: metadata.machineName };
}

/**
 * `response_action: 'errors'` for request issues: each shown on the block of its parameter, reading
 * "size must be a positive whole number". An issue without a block in this form (a parameter the form
 * does not show) is shown on the first block, so it is never lost.
 */
export function fieldErrors(
  issues: readonly RequestIssue[],
  blockIds: Record<string, string>,
  values: ViewStateValues,
): Record<string, string> {
  const byParameter: Record<string, string> = {};
  for (const { field, message } of issues) {
    const sentence = `${field} ${message}.`;
    byParameter[field] = byParameter[field] ? `${byParameter[field]} ${sentence}` : sentence;
  }
  const { errors, unplaced } = errorsByBlock(byParameter, blockIds, values);
  const [firstBlock] = Object.keys(values);
  const rest = Object.values(unplaced);
  if (rest.length > 0 && firstBlock !== undefined) {
    errors[firstBlock] = [errors[firstBlock], ...rest].filter(Boolean).join(' ');
  }
  return errors;
}
