// /ps login: where a person pastes their own API key (never into the slash command, where it would
// be visible and logged). Errors come back as response_action 'errors' keyed by LoginFields block ids.
// The same callback also shows "Checking your key…" and the linked result, when the check outlives
// Slack's 3 seconds and the modal has to be updated afterwards.
import type { KnownBlock, ModalView } from '@slack/types';
import type { Capabilities } from '../../../paperspace/dialect.js';
import { field, input, modal, note, textElement } from '../../../slack/block-kit/modal-kit.js';
import { encodeModalMetadata, type ModalContext } from '../../../slack/block-kit/modal-metadata.js';
import { escapeMrkdwn } from '../../../slack/block-kit/text.js';
import { readString, type ViewStateValues } from '../../../slack/block-kit/view-state.js';
import { CallbackId } from '../../../slack/ids.js';

export const LoginFields = {
  apiKey: field('api_key'),
  accessToken: field('access_token'),
  email: field('paperspace_email'),
} as const;

const TITLE = 'Link Paperspace';

export interface LoginModalOptions extends ModalContext {
  /** Why the last attempt failed, shown above the fields (plain text; it is escaped here). */
  problem?: string;
  /** The e-mail of the account linked already: a new key replaces it. */
  linkedAs?: string;
  /** What the configured API needs: a v1 key says who it belongs to and reaches shared drives itself. */
  capabilities?: Pick<Capabilities, 'whoAmI' | 'driveAccessToken'>;
}

export function loginModal(options: LoginModalOptions = {}): ModalView {
  const { problem, linkedAs, capabilities, ...context } = options;
  const asksEmail = capabilities?.whoAmI !== true;
  const asksAccessToken = capabilities?.driveAccessToken !== false;
  const blocks: KnownBlock[] = [];
  if (problem) blocks.push(note(`⚠️ ${escapeMrkdwn(problem)}`));
  if (linkedAs) {
    blocks.push(note(`You are linked as *${escapeMrkdwn(linkedAs)}*. A key linked here replaces that one.`));
  }
  blocks.push(
    note(
      'Paste an API key from your Paperspace console. ' +
        'It is stored encrypted and used only for the actions you take.',
    ),
    // Never prefilled: a key is not sent back to Slack once stored.
    input(
      LoginFields.apiKey,
      'API key',
      textElement({ placeholder: 'Your Paperspace API key', maxLength: 200 }),
    ),
  );
  if (asksAccessToken) blocks.push(optionalTextInput(ACCESS_TOKEN_INPUT));
  if (asksEmail) blocks.push(optionalTextInput(EMAIL_INPUT));
  return modal({
    callbackId: CallbackId.login,
    title: TITLE,
    submit: 'Link',
    privateMetadata: encodeModalMetadata(context),
    blocks,
  });
}

/** Shown while the key is still being checked after Slack's time to answer has run out. */
export function loginCheckingView(): ModalView {
  return modal({
    callbackId: CallbackId.login,
    title: TITLE,
    close: 'Close',
    blocks: [
      note(
        '⏳ Checking your key with Paperspace… It is slow to answer right now; this view changes ' +
          'as soon as it does, and you also get a message when the key is linked.',
      ),
    ],
  });
}

export interface LinkedAccountSummary {
  maskedKey: string;
  email: string;
  userId: string;
  hasAccessToken: boolean;
  /** False on v1: its shared drives answer the same API key. */
  drivesNeedAccessToken: boolean;
}

/** The result of a successful link: which account the key belongs to, never the key itself. */
export function loginLinkedView(summary: LinkedAccountSummary): ModalView {
  const token = !summary.drivesNeedAccessToken
    ? 'Shared drives use this same key.'
    : summary.hasAccessToken
      ? 'Your access token is linked too, for shared drives.'
      : 'No access token is linked: shared drives will ask for one.';
  return modal({
    callbackId: CallbackId.login,
    title: TITLE,
    close: 'Done',
    blocks: [
      note(
        // No Paperspace user id: the e-mail names the account; `/ps whoami` shows the id to whoever asks.
        `✅ Linked key \`${escapeMrkdwn(summary.maskedKey)}\` to *${escapeMrkdwn(summary.email)}*.`,
      ),
      note(token),
    ],
  });
}

export interface LoginSubmission {
  apiKey: string | undefined;
  accessToken: string | undefined;
  email: string | undefined;
}

export function readLoginSubmission(values: ViewStateValues): LoginSubmission {
  return {
    apiKey: readString(values, LoginFields.apiKey),
    accessToken: readString(values, LoginFields.accessToken),
    email: readString(values, LoginFields.email),
  };
}

interface OptionalTextInput {
  field: Parameters<typeof input>[0];
  label: string;
  placeholder: string;
  maxLength: number;
  /** When it is needed. */
  hint: string;
}

const ACCESS_TOKEN_INPUT: OptionalTextInput = {
  field: LoginFields.accessToken,
  label: 'GraphQL access token',
  placeholder: 'Only needed for shared drives',
  maxLength: 500,
  hint: 'Shared drives use the GraphQL API, which needs its own access token.',
};

const EMAIL_INPUT: OptionalTextInput = {
  field: LoginFields.email,
  label: 'Your Paperspace e-mail',
  placeholder: 'Only needed for a team key',
  maxLength: 320,
  hint: 'A team key can list every member of the team, so it does not say which one you are: your e-mail does.',
};

/** A text field the person may leave empty. */
function optionalTextInput({ field, label, placeholder, maxLength, hint }: OptionalTextInput) {
  return input(field, label, textElement({ placeholder, maxLength }), { optional: true, hint });
}
