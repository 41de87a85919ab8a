import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  LoginFields,
  loginModal,
  readLoginSubmission,
} from '../../../../src/slack/blocks/modals/login-modal.js';
import { decodeModalMetadata } from '../../../../src/slack/blocks/modals/metadata.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { visibleText } from '../inspect.js';
import { assertBlockKitLimits } from '../limits.js';
import { inputByBlockId } from './modal-fixtures.js';

describe('loginModal', () => {
  it('asks for the API key and an optional access token, and says how the key is kept', () => {
    const view = loginModal({ channelId: 'C123', responseUrl: 'https://hooks.slack.com/commands/T1/2/abc' });
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.login);
    expect(inputByBlockId(view, LoginFields.apiKey.blockId)?.optional).toBeUndefined();
    expect(inputByBlockId(view, LoginFields.accessToken.blockId)?.optional).toBe(true);
    expect(visibleText(view.blocks)).toContain('stored encrypted and used only for the actions you take');
    expect(decodeModalMetadata(view.private_metadata)).toEqual({
      channelId: 'C123',
      responseUrl: 'https://hooks.slack.com/commands/T1/2/abc',
    });
  });

  it('reads the pasted key trimmed and leaves an empty token out', () => {
    const values: ViewOutput['state']['values'] = {
      api_key: { api_key_input: { type: 'plain_text_input', value: '  0123abcd\n' } },
      access_token: { access_token_input: { type: 'plain_text_input', value: null } },
    };
    expect(readLoginSubmission(values)).toEqual({ apiKey: '0123abcd', accessToken: undefined });
  });
});
