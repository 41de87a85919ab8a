import { describe, expect, it } from 'vitest';
import { homeView } from '../../../../src/features/home/blocks/home.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { machinesFixture } from '../../../slack/block-kit/fixtures.js';
import { buttons, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function home(...args: Parameters<typeof homeView>) {
  const view = homeView(...args);
  assertBlockKitLimits(view);
  return view;
}

const linked = { maskedKey: '••••••••3f9a', account: 'ada@example.com' };

describe('homeView', () => {
  it('offers Login and no machines when the key is not linked', () => {
    const view = home({ linked: undefined, machines: [] });
    expect(view.type).toBe('home');
    expect(buttons(view.blocks).map((button) => [button.action_id, button.text.text])).toEqual([
      [ActionId.login, 'Log in'],
    ]);
    expect(visibleText(view.blocks)).not.toContain('Your machines');
  });

  it('shows the linked account, the masked key and the machines as compact cards', () => {
    const view = home({ linked, machines: machinesFixture(3) });
    const text = visibleText(view.blocks);
    expect(text).toContain('Linked to *ada@example.com* with key `••••••••3f9a`');
    expect(text).toContain('Your machines (3)');
    expect(text).toContain('*machine-2* · Ready');
    expect(view.blocks.some((block) => block.type === 'header' && visibleText([block]) === 'machine-0')).toBe(
      false,
    );
  });

  it('stays within 100 blocks and points to /ps list for the rest', () => {
    const view = home({ linked, machines: machinesFixture(60) });
    expect(view.blocks.length).toBeLessThanOrEqual(100);
    const shownCards = view.blocks.filter((block) => block.block_id?.startsWith('machine_actions:')).length;
    expect(visibleText(view.blocks)).toContain(
      `…and ${60 - shownCards} more machines, too many to show here: \`/ps list\` lists them all`,
    );
    // Each row carries its price (a list price, dated, without a rate read), so 25 fit, not 26.
    expect(shownCards).toBeGreaterThanOrEqual(25);
  });

  it('explains an error instead of showing an empty list', () => {
    const view = home({ linked, machines: [], error: 'Paperspace did not answer <in time>' });
    const text = visibleText(view.blocks);
    expect(text).toContain('⚠️ Paperspace did not answer &lt;in time&gt;');
    expect(text).not.toContain('No machines yet');
  });

  it('says how to create a machine when the account has none', () => {
    expect(visibleText(home({ linked, machines: [] }).blocks)).toContain(
      'No machines yet. Create one with `/ps create`.',
    );
  });
});
