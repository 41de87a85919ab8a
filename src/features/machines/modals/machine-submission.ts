// What every machine modal submission needs: who submitted (they act with their own key), where the
// modal came from (private_metadata), and a private way to answer after the modal has closed (a view
// submission has no response_url).
import { MalformedPayloadError } from '../../../errors/malformed-payload-error.js';
import { decodeModalMetadata, type ModalMetadata } from '../../../slack/block-kit/modal-metadata.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import type { ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { type Interaction, type ViewRequest, viewInteraction } from '../../../slack/interaction.js';
import type { PlatformDeps } from '../../../slack/platform-deps.js';

export interface MachineSubmission extends Interaction {
  metadata: ModalMetadata;
  values: ViewStateValues;
  /** Answers the submitter alone: ephemeral where the modal was opened, or in their DM. */
  tell(message: SlackMessage): Promise<void>;
  /** Tells the submitter why the work after the ack failed. */
  tellFailure(error: unknown): Promise<void>;
}

export function readSubmission(deps: PlatformDeps, request: ViewRequest): MachineSubmission {
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
    throw new MalformedPayloadError('this form', 'Machine modal private_metadata names no machine');
  }
  return { id: metadata.machineId, name: metadata.machineName };
}
