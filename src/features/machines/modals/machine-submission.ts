// What every machine modal submission needs: who submitted (they act with their own key), where the
// modal came from (private_metadata), field errors keyed by the builder's block ids, and a private way
// to answer after the modal has closed (a view submission has no response_url).
import type { ViewOutput, ViewSubmitAction } from '@slack/bolt';
import type { WebClient } from '@slack/web-api';
import { failureText } from '../../../errors/user-message.js';
import type { PaperspaceClient } from '../../../paperspace/client.js';
import type { RequestIssue } from '../../../paperspace/errors.js';
import { errorMessage, loginPrompt } from '../../../slack/block-kit/messages.js';
import { decodeModalMetadata, type ModalMetadata } from '../../../slack/block-kit/modal-metadata.js';
import type { SlackMessage } from '../../../slack/block-kit/text.js';
import { errorsByBlock, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import { tellPrivately } from '../../../slack/posting.js';
import type { SlackUser } from '../../../store/slack-user.js';

export interface MachineSubmission {
  deps: ListenerDeps;
  user: SlackUser;
  web: WebClient;
  metadata: ModalMetadata;
  values: ViewStateValues;
  /** Answers the submitter alone: ephemeral where the modal was opened, or in their DM. */
  tell(message: SlackMessage): Promise<void>;
  /** Tells the submitter why the work after the ack failed. */
  tellFailure(error: unknown): Promise<void>;
  /** The submitter's own client; when they linked no key (meanwhile), tells them to log in. */
  userClient(): Promise<PaperspaceClient | undefined>;
}

export function readSubmission(
  deps: ListenerDeps,
  body: ViewSubmitAction,
  view: ViewOutput,
  web: WebClient,
): MachineSubmission {
  const user = { teamId: body.user.team_id ?? body.team?.id ?? '', userId: body.user.id };
  // The request scope puts the request's id on these log lines and on the Paperspace calls.
  const logger = deps.logger.child({ view: view.callback_id, user: user.userId });
  const metadata = decodeModalMetadata(view.private_metadata);
  const tell = (message: SlackMessage) =>
    tellPrivately(web, { channel: metadata.channelId, userId: user.userId }, message);
  return {
    deps: { ...deps, logger },
    user,
    web,
    metadata,
    values: view.state.values,
    tell,
    tellFailure: (error) => tell(errorMessage(failureText(error, logger))),
    async userClient() {
      const client = await deps.clients.forUser(user);
      if (client === undefined) await tell(loginPrompt());
      return client;
    },
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
