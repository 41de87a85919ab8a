import { describe, expect, it } from 'vitest';
import {
  linkedNotice,
  unlinkedMessage,
  whoamiMessage,
} from '../../../../src/features/account/blocks/account.js';
import { visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

const linked = {
  maskedKey: '••••3f9a',
  email: 'ada<script>@example.com',
  userId: 'u1ada',
  linkedAt: Date.UTC(2025, 0, 2, 3, 4),
  hasAccessToken: false,
  drivesNeedAccessToken: true,
};

describe('whoamiMessage', () => {
  it('names the account, the masked key, the link date and the missing token', () => {
    const message = whoamiMessage(linked);
    assertBlockKitLimits(message);
    const text = visibleText(message.blocks);
    expect(text).toContain('Your key `••••3f9a` belongs to *ada&lt;script&gt;@example.com*');
    expect(text).toContain('Paperspace user `u1ada`');
    expect(text).not.toMatch(/team/i);
    expect(text).toContain('Linked <!date^1735787040^{date_short_pretty} at {time}|2025-01-02 03:04 UTC>');
    expect(text).toContain('Access token: none');
  });

  it('on v1, says shared drives use the same key and asks for no access token', () => {
    const text = visibleText(whoamiMessage({ ...linked, drivesNeedAccessToken: false }).blocks);
    expect(text).toContain('Shared drives: reached with this same key');
    expect(text).not.toContain('Access token');
  });

  it('says when an access token is linked', () => {
    expect(visibleText(whoamiMessage({ ...linked, hasAccessToken: true }).blocks)).toContain(
      'Access token: linked',
    );
  });
});

describe('linkedNotice', () => {
  it('confirms the link with the masked key and says what to do if it was not them', () => {
    const message = linkedNotice(linked);
    assertBlockKitLimits(message);
    expect(visibleText(message.blocks)).toContain('`••••3f9a` is now linked');
    expect(visibleText(message.blocks)).toContain('Not you?');
  });
});

describe('unlinkedMessage', () => {
  it('names the forgotten key, or says there was none', () => {
    expect(unlinkedMessage({ maskedKey: '••••3f9a' }).text).toContain(
      'Forgot your Paperspace key `••••3f9a`',
    );
    expect(unlinkedMessage({ maskedKey: undefined }).text).toContain('Forgot your Paperspace key.');
    expect(unlinkedMessage(undefined).text).toContain('nothing to forget');
  });
});
