// /ps login: where a person pastes their own API key (never into the slash command, where it would
// be visible and logged). Errors come back as response_action 'errors' keyed by LoginFields block ids.
import type { ModalView } from '@slack/types';
import { CallbackId } from '../../ids.js';
import { encodeModalMetadata, type ModalContext } from './metadata.js';
import { field, input, modal, note, textElement } from './modal-kit.js';
import { readString, type ViewStateValues } from './view-state.js';

export const LoginFields = {
  apiKey: field('api_key'),
  accessToken: field('access_token'),
} as const;

export function loginModal(context: ModalContext = {}): ModalView {
  return modal({
    callbackId: CallbackId.login,
    title: 'Link Paperspace',
    submit: 'Link',
    privateMetadata: encodeModalMetadata(context),
    blocks: [
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
      input(
        LoginFields.accessToken,
        'GraphQL access token',
        textElement({ placeholder: 'Only needed for shared drives', maxLength: 500 }),
        { optional: true, hint: 'Shared drives use the GraphQL API, which needs its own access token.' },
      ),
    ],
  });
}

export interface LoginSubmission {
  apiKey: string | undefined;
  accessToken: string | undefined;
}

export function readLoginSubmission(values: ViewStateValues): LoginSubmission {
  return {
    apiKey: readString(values, LoginFields.apiKey),
    accessToken: readString(values, LoginFields.accessToken),
  };
}
