import { describe, expect, it } from 'vitest';
import { modal, selectElement } from '../../../src/slack/block-kit/modal-kit.js';
import { option } from '../../../src/slack/block-kit/text.js';
import { errorsByBlock } from '../../../src/slack/block-kit/view-state.js';

describe('modal', () => {
  it('cuts a long title to the 24 characters Slack allows', () => {
    const view = modal({
      callbackId: 'x',
      title: 'A title much longer than Slack allows',
      blocks: [{ type: 'divider' }],
    });
    expect(view.title.text).toBe('A title much longer tha…');
  });

  it('refuses more than 100 blocks instead of letting Slack reject the view', () => {
    const blocks = Array.from({ length: 101 }, () => ({ type: 'divider' as const }));
    expect(() => modal({ callbackId: 'x', title: 'T', blocks })).toThrow(/101 blocks; Slack allows 100/);
  });
});

describe('selectElement', () => {
  it('keeps 100 options and preselects only a value it offers', () => {
    const options = Array.from({ length: 120 }, (_, i) => option(`o${i}`, `v${i}`));
    expect(selectElement(options, 'v5').initial_option?.value).toBe('v5');
    expect(selectElement(options, 'v110')).not.toHaveProperty('initial_option');
    expect(selectElement(options).options).toHaveLength(100);
  });
});

describe('errorsByBlock', () => {
  it('joins two errors that land on the same block', () => {
    const result = errorsByBlock(
      { assignPublicIp: 'Choose one.', dynamicPublicIp: 'Not with a static IP.' },
      { assignPublicIp: 'public_ip', dynamicPublicIp: 'public_ip' },
      { public_ip: {} },
    );
    expect(result).toEqual({ errors: { public_ip: 'Choose one. Not with a static IP.' }, unplaced: {} });
  });
});
