import { describe, expect, it } from 'vitest';
import {
  accessorShareConfirmation,
  accessorSharePost,
} from '../../../../src/features/shares/blocks/accessor-share.js';
import { decodeShareRequest, sharePost } from '../../../../src/features/shares/blocks/share.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { MALICIOUS_NAME } from '../../../slack/block-kit/fixtures.js';
import { mrkdwnTexts, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

const expiresAt = Date.UTC(2024, 4, 1, 22, 30);
const input = {
  shareId: 'share-1',
  sharerUserId: 'U024BE7LH',
  machines: [
    { id: 'ps1', name: 'gpu-1' },
    { id: 'ps2', name: MALICIOUS_NAME },
  ],
  delegationId: 8812,
  expiresAt,
};

function checked<T extends { blocks: unknown[]; text: string }>(message: T): T {
  assertBlockKitLimits(message as never);
  return message;
}

const actionIds = (blocks: unknown[]) =>
  [...JSON.stringify(blocks).matchAll(/"action_id":"([a-z_]+)"/g)].map((m) => m[1]);

describe('accessorShareConfirmation', () => {
  it('tells the sharer where it would be posted, who gets access, what they can do and until when, and offers Share or Cancel', () => {
    const { blocks } = checked(
      accessorShareConfirmation({
        sharerUserId: 'U024BE7LH',
        channel: 'C0ML',
        machines: input.machines,
        with: [],
        expiresAt,
        rights: 'use',
      }),
    );
    const shown = visibleText(blocks);
    expect(shown).toContain('Share 2 machines in <#C0ML>?');
    expect(shown).toContain('Everyone in <#C0ML> can get access with one click on the post');
    expect(shown).toContain('until <!date^1714602600^');
    expect(shown).toContain('Only <@U024BE7LH> can start and stop them.');
    expect(actionIds(blocks)).toEqual([ActionId.shareConfirm, ActionId.shareCancel]);
    const value = JSON.stringify(blocks).match(/"value":"((?:[^"\\]|\\.)*)"/)?.[1] ?? '';
    expect(decodeShareRequest(JSON.parse(`"${value}"`))).toEqual({ machineIds: ['ps1', 'ps2'], with: [] });
  });
});

describe('accessorSharePost', () => {
  it('says who shared which machines, what members can do and until when, offers Get access, and who may end it', () => {
    const { blocks, text } = checked(accessorSharePost({ ...input, grants: [], rights: 'use' }));
    const shown = visibleText(blocks);
    expect(shown).toContain('🔗 <@U024BE7LH> shared 2 machines with this channel until <!date^1714602600^');
    expect(shown).toContain('• *gpu-1*\n');
    expect(shown).toContain('Nobody has taken access yet.');
    expect(shown).not.toMatch(/tok_|access token/i);
    // End share is the sharer's alone: it is in their note and /ps shares, not before everyone here.
    expect(actionIds(blocks)).toEqual([ActionId.shareClaim]);
    expect(shown).toContain('only <@U024BE7LH> can end it early (`/ps shares`)');
    expect(text).toContain('<@U024BE7LH> shared gpu-1, &lt;!channel&gt;');
    expect(mrkdwnTexts(blocks).join('\n')).not.toMatch(/<(!channel|@U1|https)/);
  });
});

describe('sharePost (a share stored as a resource delegation)', () => {
  it('marks an expired share, with no button left', () => {
    const { blocks, text } = checked(sharePost({ ...input, over: { kind: 'expired' } }));
    expect(visibleText(blocks)).toContain(
      '⌛ <@U024BE7LH> shared 2 machines here; this share expired <!date^1714602600^',
    );
    expect(actionIds(blocks)).toEqual([]);
    expect(text).toMatch(/^Expired share of gpu-1/);
  });

  it('marks a share ended early and says honestly that Paperspace access lasts until the delegation expires', () => {
    const endedAt = expiresAt - 3 * 60 * 60_000;
    const { blocks } = checked(sharePost({ ...input, over: { kind: 'ended', endedAt } }));
    const shown = visibleText(blocks);
    expect(shown).toContain(`⏹ <@U024BE7LH> ended this share of 2 machines <!date^${endedAt / 1000}^`);
    expect(shown).toContain('Paperspace offers no way to revoke a delegation early');
    expect(shown).toContain('stays valid until <!date^1714602600^');
    expect(actionIds(blocks)).toEqual([]);
  });

  it('keeps the notification text short however many long-named machines are shared', () => {
    const machines = Array.from({ length: 40 }, (_, i) => ({
      id: `ps${i}`,
      name: `${'n'.repeat(2000)}${i}`,
    }));
    const { text } = checked(sharePost({ ...input, machines, over: { kind: 'expired' } }));
    expect(text.length).toBeLessThanOrEqual(3000);
    expect(text.endsWith('…')).toBe(true);
  });
});
