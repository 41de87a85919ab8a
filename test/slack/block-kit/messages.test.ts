import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  loginPrompt,
  plainMessage,
  usageErrorMessage,
} from '../../../src/slack/block-kit/messages.js';
import { ActionId } from '../../../src/slack/ids.js';
import { buttons, mrkdwnTexts, visibleText } from './inspect.js';
import { assertBlockKitLimits } from './limits.js';

function checked<T extends Parameters<typeof assertBlockKitLimits>[0]>(message: T): T {
  assertBlockKitLimits(message);
  return message;
}

describe('usageErrorMessage', () => {
  it('names the problem and shows the usage line, with user input escaped', () => {
    const { text } = checked(usageErrorMessage('Unknown machine "<!channel>"', '/ps show <machine>'));
    expect(text).toBe('⚠️ Unknown machine "&lt;!channel&gt;"\nUsage: `/ps show &lt;machine&gt;`');
  });
});

describe('loginPrompt', () => {
  it('asks to link a key and offers a Login button', () => {
    const { blocks, text } = checked(loginPrompt());
    expect(text).toBe('Link your Paperspace API key to use /ps.');
    expect(buttons(blocks).map((button) => [button.action_id, button.text.text])).toEqual([
      [ActionId.login, 'Log in'],
    ]);
    expect(visibleText(blocks)).toContain('stored encrypted');
  });
});

describe('errorMessage', () => {
  it('shows the error escaped', () => {
    const { blocks } = checked(errorMessage('Paperspace said: <b>Bad Gateway</b> & more'));
    expect(mrkdwnTexts(blocks)).toEqual(['❌ Paperspace said: &lt;b&gt;Bad Gateway&lt;/b&gt; &amp; more']);
  });
});

describe('plainMessage', () => {
  it('is one section whose words are also the whole notification text, however long', () => {
    const text = `✅ ${'x'.repeat(3500)}`;
    const built = plainMessage(text);
    expect(built.text).toBe(text);
    expect(built.blocks).toEqual([{ type: 'section', text: { type: 'mrkdwn', text: expect.any(String) } }]);
  });
});
