import { describe, expect, it } from 'vitest';
import { statusModal } from '../../../src/slack/block-kit/status-modal.js';
import { visibleText } from './inspect.js';
import { assertBlockKitLimits } from './limits.js';
import { inputBlocks } from './modal-fixtures.js';

describe('statusModal', () => {
  it('reports without inputs or a submit button, closed with Done unless told otherwise', () => {
    const view = statusModal({
      callbackId: 'x_modal',
      title: 'New shared drive',
      text: '✅ Created',
      details: ['200 GiB'],
    });
    assertBlockKitLimits(view);
    expect(inputBlocks(view)).toEqual([]);
    expect(view.submit).toBeUndefined();
    expect(view.close?.text).toBe('Done');
    expect(visibleText(view.blocks)).toBe('✅ Created\n200 GiB');
    expect(statusModal({ callbackId: 'x_modal', title: 'T', text: '⏳', close: 'Cancel' }).close?.text).toBe(
      'Cancel',
    );
  });
});
