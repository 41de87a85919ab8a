import { describe, expect, it } from 'vitest';
import {
  errorMessage,
  helpMessage,
  loginPrompt,
  usageErrorMessage,
} from '../../../src/slack/block-kit/messages.js';
import { ActionId } from '../../../src/slack/ids.js';
import { buttons, mrkdwnTexts, visibleText } from './inspect.js';
import { assertBlockKitLimits } from './limits.js';

function checked<T extends Parameters<typeof assertBlockKitLimits>[0]>(message: T): T {
  assertBlockKitLimits(message);
  return message;
}

describe('helpMessage', () => {
  it('lists every usage line with its summary', () => {
    const { blocks, text } = checked(
      helpMessage([
        { usage: '/ps list [key=value ...]', summary: 'List your machines' },
        { usage: '/ps show <machine>', summary: 'Show one machine' },
      ]),
    );
    expect(visibleText(blocks)).toContain(
      '`/ps list [key=value ...]`  List your machines\n`/ps show &lt;machine&gt;`  Show one machine',
    );
    expect(text).toBe('/ps commands: /ps list, /ps show');
  });

  it('splits a long table into sections of at most 3000 characters without losing a line', () => {
    const entries = Array.from({ length: 120 }, (_, i) => ({
      usage: `/ps command${i} <arg>`,
      summary: 's'.repeat(60),
    }));
    const { blocks } = checked(helpMessage(entries));
    expect(blocks.filter((block) => block.type === 'section').length).toBeGreaterThan(1);
    expect(visibleText(blocks).match(/`\/ps command\d+ &lt;arg&gt;`/g)).toHaveLength(120);
  });
});

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
