import type { Overflow } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { machineCard, machineCardMessage } from '../../../../src/features/machines/blocks/machine-card.js';
import {
  decodeMachineRef,
  machineIdFromBlockId,
} from '../../../../src/features/machines/blocks/machine-ref.js';
import { ActionId, MachineOverflowOption } from '../../../../src/slack/ids.js';
import { MALICIOUS_NAME, machineFixture } from '../../../slack/block-kit/fixtures.js';
import {
  actionElements,
  buttonByAction,
  buttonLabels,
  buttons,
  mrkdwnTexts,
  visibleText,
} from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function card(...args: Parameters<typeof machineCard>) {
  const blocks = machineCard(...args);
  assertBlockKitLimits(blocks);
  return blocks;
}

describe('machineCard buttons', () => {
  it('offers Start and no Stop or Restart on a machine that is off', () => {
    const blocks = card(machineFixture({ state: 'off' }));
    expect(buttonLabels(blocks)).toEqual(['Start', 'Share', 'Usage']);
    expect(buttonByAction(blocks, ActionId.machineStart)?.style).toBe('primary');
  });

  it.each(['ready', 'serviceready', 'starting'])(
    'offers Stop and Restart, both confirmed, when %s',
    (state) => {
      const blocks = card(machineFixture({ state }));
      expect(buttonLabels(blocks)).toEqual(['Stop', 'Restart', 'Share', 'Usage']);
      const stop = buttonByAction(blocks, ActionId.machineStop);
      expect(stop?.style).toBe('danger');
      expect(stop?.confirm?.title?.text).toBe('Stop gpu-1?');
      expect(stop?.confirm?.style).toBe('danger');
      expect(buttonByAction(blocks, ActionId.machineRestart)?.confirm?.confirm?.text).toBe('Restart');
    },
  );

  it.each(['stopping', 'restarting', 'provisioning', 'upgrading', 'hibernating'])(
    'offers no lifecycle button while %s',
    (state) => {
      expect(buttonLabels(card(machineFixture({ state })))).toEqual(['Share', 'Usage']);
    },
  );

  it.each([false, true])(
    'gives every card Share, Usage and an overflow of three options (compact: %s)',
    (compact) => {
      const blocks = card(machineFixture(), { compact });
      const overflow = actionElements(blocks).find(
        (element): element is Overflow => element.type === 'overflow',
      );
      expect(overflow?.action_id).toBe(ActionId.machineOverflow);
      expect(overflow?.options.map((option) => option.value)).toEqual([
        MachineOverflowOption.settings,
        MachineOverflowOption.access,
        MachineOverflowOption.destroy,
      ]);
      expect(buttonByAction(blocks, ActionId.machineShare)).toBeDefined();
      expect(buttonByAction(blocks, ActionId.machineUsage)).toBeDefined();
    },
  );

  it('carries the machine id and name in every button value and the id in the actions block_id', () => {
    const blocks = card(machineFixture({ id: 'psabc123', name: 'render box' }));
    for (const button of buttons(blocks)) {
      expect(decodeMachineRef(button.value ?? '')).toEqual({ id: 'psabc123', name: 'render box' });
    }
    const actions = blocks.find((block) => block.type === 'actions');
    expect(machineIdFromBlockId(actions?.block_id ?? '')).toBe('psabc123');
  });

  it('keeps button values short even for a very long machine name', () => {
    const blocks = card(machineFixture({ name: 'n'.repeat(5000) }));
    for (const button of buttons(blocks)) expect(button.value?.length).toBeLessThan(300);
  });
});

describe('machineCard details', () => {
  it('shows state, type, region, OS, CPUs, RAM in GiB, GPU, storage bar and IPs, not its Paperspace id', () => {
    const text = visibleText(card(machineFixture()));
    for (const expected of [
      'gpu-1',
      '🟢 Ready',
      'P5000',
      'East Coast (NY2)',
      'Ubuntu 20.04.6 LTS',
      '*CPUs*\n8',
      '*RAM*\n30 GiB',
      'Quadro P5000',
      '▓▓▓▓░░░░░░ 40% of 50 GiB',
      '184.105.1.20',
      '10.64.21.3',
    ]) {
      expect(text).toContain(expected);
    }
    expect(text).not.toContain('psz9xmdl1');
  });

  it('shows dashes for what a freshly created machine does not have yet', () => {
    const fresh = machineFixture({
      state: 'provisioning',
      os: null,
      ram: null,
      gpu: null,
      storageTotal: null,
      storageUsed: null,
      publicIpAddress: null,
      privateIpAddress: null,
      region: null,
    });
    const text = visibleText(card(fresh));
    expect(text).toContain('🟡 Provisioning');
    expect(text).toContain('*Storage*\n—');
    expect(text).toContain('*Public IP*\n—');
    expect(text).not.toMatch(/NaN|null|undefined/);
  });

  it('shows a state the contract does not name as sent, with a question mark', () => {
    expect(visibleText(card(machineFixture({ state: 'hibernating' })))).toContain('❔ hibernating');
  });

  it('renders a malicious machine name inert in mrkdwn and in the fallback text', () => {
    const machine = machineFixture({ name: MALICIOUS_NAME });
    const blocks = [...card(machine), ...card(machine, { compact: true })];
    const rendered = mrkdwnTexts(blocks).join('\n');
    expect(rendered).not.toMatch(/<(!channel|@U1|https)/);
    expect(rendered).toContain('&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;https://evil.example|click&gt;');
    expect(machineCardMessage(machine).text).toBe(
      '&lt;!channel&gt; &amp; &lt;@U1&gt; &lt;https://evil.example|click&gt;: 🟢 Ready',
    );
  });

  it('warns when OS updates are pending', () => {
    expect(visibleText(card(machineFixture({ updatesPending: true })))).toContain('OS updates pending');
  });
});

describe('machineCard compact', () => {
  it('puts the details on one line under the name and drops the header and fields', () => {
    const blocks = card(machineFixture(), { compact: true });
    expect(blocks.map((block) => block.type)).toEqual(['section', 'actions']);
    const [nameLine, detailLine, ...rest] = visibleText(blocks).split('\n');
    expect(nameLine).toBe('🟢 *gpu-1* · Ready');
    expect(detailLine).toContain(
      'P5000 · $0.78 / h list price (May 2024) · East Coast (NY2) · Ubuntu 20.04.6 LTS · 8 CPUs · 30 GiB RAM',
    );
    expect(detailLine).toContain('disk ▓▓▓▓░░░░░░ 40% of 50 GiB');
    expect(rest[0]).toBe('Stop');
  });
});

describe('machineCard notice and timeline', () => {
  it('shows the notice as a context line', () => {
    const blocks = card(machineFixture({ state: 'restarting' }), {
      notice: 'Restarting… requested by <@U1>',
    });
    expect(blocks).toContainEqual({
      type: 'context',
      elements: [{ type: 'mrkdwn', text: 'Restarting… requested by <@U1>' }],
    });
  });

  it('shows state changes with times every reader sees in their own time zone', () => {
    const at = Date.UTC(2024, 4, 1, 18, 30);
    const blocks = card(machineFixture(), {
      timeline: [
        { state: 'starting', at },
        { state: 'ready', at: at + 134_000 },
      ],
    });
    expect(visibleText(blocks)).toContain(
      '🟡 Starting <!date^1714588200^{time}|18:30 UTC> → 🟢 Ready <!date^1714588334^{time}|18:32 UTC>',
    );
  });

  it('keeps only the latest entries of a long timeline', () => {
    const timeline = Array.from({ length: 40 }, (_, i) => ({
      state: i % 2 ? 'ready' : 'restarting',
      at: i * 60_000,
    }));
    const line = visibleText(card(machineFixture(), { timeline }));
    expect(line).toContain('… → ');
    expect(line.match(/<!date\^\d+\^\{time\}/g)).toHaveLength(6);
  });
});

describe('machineCard price', () => {
  // The contract's listing names only the plan ("P5000 hourly"); its rate comes from utilization.
  it('shows the rate it was given, with the plan beside it, on a legacy machine', () => {
    const hourlyRate = { dollars: '0.75', basis: 'account' as const };
    expect(visibleText(card(machineFixture(), { hourlyRate }))).toContain(
      '*Billing*\n$0.75 / h · P5000 hourly',
    );
    expect(visibleText(card(machineFixture(), { compact: true, hourlyRate }))).toContain(
      'P5000 · $0.75 / h ·',
    );
  });

  it('shows the published list price, said to be one and dated, when no rate was read (no call per card)', () => {
    const text = visibleText(card(machineFixture()));
    expect(text).toContain('*Billing*\n$0.78 / h list price (May 2024) · P5000 hourly');
  });

  it('shows the rate a v1 listing carries as the machine’s own', () => {
    const text = visibleText(card(machineFixture({ usageRate: '$0.81 / h' }), { compact: true }));
    expect(text).toContain('P5000 · $0.81 / h ·');
    expect(text).not.toContain('list price');
  });

  it('shows the plan alone for a type with neither a rate nor a list price', () => {
    const text = visibleText(card(machineFixture({ machineType: 'Z9', usageRate: 'Z9 hourly' })));
    expect(text).toContain('*Billing*\nZ9 hourly');
  });
});

describe('machineCard lease', () => {
  const lease = { text: '⏱ 12 h run limit: stops today at 21:40', extendValue: '{"id":"ps1"}' };

  it('shows the lease line with Extend, on the detailed and the compact card, and none without one', () => {
    for (const compact of [false, true]) {
      const machine = machineFixture({ state: 'ready' });
      const blocks = card(machine, { compact, lease });
      expect(visibleText(blocks)).toContain('12 h run limit: stops today at 21:40');
      const extend = buttonByAction(blocks, ActionId.policyKeep);
      expect(extend?.text.text).toBe('Extend');
      expect(extend?.value).toBe(lease.extendValue);
      expect(buttonByAction(card(machine, { compact }), ActionId.policyKeep)).toBeUndefined();
    }
  });

  it('gives each card its own lease block, so the App Home can show many', () => {
    const one = card(machineFixture({ id: 'ps1', state: 'ready' }), { compact: true, lease });
    const two = card(machineFixture({ id: 'ps2', state: 'ready' }), { compact: true, lease });
    const ids = [...one, ...two].map((block) => block.block_id).filter((id) => id !== undefined);
    expect(new Set(ids).size).toBe(ids.length);
  });
});
