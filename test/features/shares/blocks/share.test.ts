import { describe, expect, it } from 'vitest';
import { shareMessage } from '../../../../src/features/shares/blocks/share.js';
import { MALICIOUS_NAME } from '../../../slack/block-kit/fixtures.js';
import { mrkdwnTexts, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

const expiresAt = Date.UTC(2024, 4, 1, 22, 30);
const input = {
  sharerUserId: 'U024BE7LH',
  machines: [
    { id: 'ps1', name: 'gpu-1' },
    { id: 'ps2', name: MALICIOUS_NAME },
  ],
  delegationId: 8812,
  accessTokenId: 'tok_7b1c',
  expiresAt,
};

function share(...args: Parameters<typeof shareMessage>) {
  const message = shareMessage(...args);
  assertBlockKitLimits(message);
  return message;
}

describe('shareMessage', () => {
  it('says who shared which machines, the access token id and the expiry in each reader time zone', () => {
    const { blocks, text } = share(input);
    const shown = visibleText(blocks);
    expect(shown).toContain('🔗 <@U024BE7LH> shared 2 machines with this channel.');
    expect(shown).toContain('• *gpu-1* `ps1`');
    expect(shown).toContain('`tok_7b1c`');
    expect(shown).toContain(
      '*Expires*\n<!date^1714602600^{date_short_pretty} at {time}|2024-05-01 22:30 UTC>',
    );
    expect(text).toContain('<@U024BE7LH> shared gpu-1, &lt;!channel&gt;');
    expect(mrkdwnTexts(blocks).join('\n')).not.toMatch(/<(!channel|@U1|https)/);
  });

  it('marks an expired share and stops showing the access token id', () => {
    const { blocks, text } = share({ ...input, expired: true });
    const shown = visibleText(blocks);
    expect(shown).toContain('⌛ <@U024BE7LH> shared 2 machines here; this share expired <!date^1714602600^');
    expect(shown).not.toContain('tok_7b1c');
    expect(text).toMatch(/^Expired share of gpu-1/);
  });

  it('keeps the notification text short however many long-named machines are shared', () => {
    const machines = Array.from({ length: 40 }, (_, i) => ({
      id: `ps${i}`,
      name: `${'n'.repeat(2000)}${i}`,
    }));
    const { text } = share({ ...input, machines });
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.endsWith('…')).toBe(true);
  });
});
