import type { ViewOutput } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import {
  LoginFields,
  loginCheckingView,
  loginLinkedView,
  loginModal,
  readLoginSubmission,
} from '../../../../src/features/account/blocks/login-modal.js';
import { decodeModalMetadata } from '../../../../src/slack/block-kit/modal-metadata.js';
import { CallbackId } from '../../../../src/slack/ids.js';
import { visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { inputByBlockId } from '../../../slack/block-kit/modal-fixtures.js';

describe('loginModal', () => {
  it('asks for the API key and an optional access token, and says how the key is kept', () => {
    const view = loginModal({ channelId: 'C123', responseUrl: 'https://hooks.slack.com/commands/T1/2/abc' });
    assertBlockKitLimits(view);
    expect(view.callback_id).toBe(CallbackId.login);
    expect(inputByBlockId(view, LoginFields.apiKey.blockId)?.optional).toBeUndefined();
    expect(inputByBlockId(view, LoginFields.accessToken.blockId)?.optional).toBe(true);
    expect(inputByBlockId(view, LoginFields.email.blockId)?.optional).toBe(true);
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
    expect(readLoginSubmission(values)).toEqual({
      apiKey: '0123abcd',
      accessToken: undefined,
      email: undefined,
    });
  });

  it('shows why the last attempt failed, escaped, above empty fields', () => {
    const view = loginModal({ problem: 'API key: Paperspace does not accept <this> key.' });
    assertBlockKitLimits(view);
    const text = visibleText(view.blocks);
    expect(text).toContain('⚠️ API key: Paperspace does not accept &lt;this&gt; key.');
    expect(JSON.stringify(view.blocks)).not.toContain('initial_value');
  });

  it('says which account a new key replaces', () => {
    expect(visibleText(loginModal({ linkedAs: 'ada@example.com' }).blocks)).toContain(
      'You are linked as *ada@example.com*. A key linked here replaces that one.',
    );
  });
});

describe('login status views', () => {
  it('say the key is being checked, with nothing to submit', () => {
    const view = loginCheckingView();
    assertBlockKitLimits(view);
    expect(view.submit).toBeUndefined();
    expect(visibleText(view.blocks)).toContain('Checking your key');
  });

  it('show the linked account and masked key, closed with Done', () => {
    const view = loginLinkedView({
      maskedKey: '••••3f9a',
      email: 'ada@example.com',
      userId: 'u1ada',
      hasAccessToken: false,
      drivesNeedAccessToken: true,
    });
    assertBlockKitLimits(view);
    expect(view.close?.text).toBe('Done');
    expect(visibleText(view.blocks)).toContain('Linked key `••••3f9a` to *ada@example.com*.');
    expect(visibleText(view.blocks)).toContain('No access token is linked');
  });
});
