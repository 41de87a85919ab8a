import type { KnownBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import { machineList } from '../../../../src/features/machines/blocks/machine-list.js';
import { decodePageValue } from '../../../../src/slack/block-kit/paging.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { MALICIOUS_NAME, machineFixture, machinesFixture } from '../../../slack/block-kit/fixtures.js';
import { buttons, mrkdwnTexts, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function list(...args: Parameters<typeof machineList>) {
  const message = machineList(...args);
  assertBlockKitLimits(message);
  return message;
}

const pager = (blocks: KnownBlock[]) =>
  buttons(blocks).filter((button) => button.action_id === ActionId.listPage);

describe('machineList', () => {
  it('fits 200 machines into pages of at most 50 blocks, with counts in the header', () => {
    const machines = machinesFixture(200);
    const first = list(machines, { page: 1, filters: {} });
    expect(first.blocks.length).toBeLessThanOrEqual(50);
    expect(visibleText(first.blocks)).toContain('200 machines · page 1 of 20');
    for (const pageSize of [1, 15, 16, 100, 1000]) {
      const { blocks } = list(machines, { page: 2, pageSize, filters: {} });
      expect(blocks.length).toBeLessThanOrEqual(50);
    }
  });

  it('has Next but no Prev on the first page, both in between, and Prev but no Next on the last', () => {
    const machines = machinesFixture(25);
    expect(pager(list(machines, { page: 1, filters: {} }).blocks).map((b) => b.text.text)).toEqual([
      'Next ▶',
    ]);
    expect(pager(list(machines, { page: 2, filters: {} }).blocks).map((b) => b.text.text)).toEqual([
      '◀ Prev',
      'Next ▶',
    ]);
    expect(pager(list(machines, { page: 3, filters: {} }).blocks).map((b) => b.text.text)).toEqual([
      '◀ Prev',
    ]);
    expect(pager(list(machines.slice(0, 3), { page: 1, filters: {} }).blocks)).toEqual([]);
  });

  it('encodes the neighbouring page with the list kind and the filters in force', () => {
    const filters = { state: 'ready', region: 'Europe (AMS1)' };
    const [prev, next] = pager(list(machinesFixture(40), { page: 2, filters }).blocks);
    expect(decodePageValue(prev?.value ?? '')).toEqual({ kind: 'machines', filters, page: 1 });
    expect(decodePageValue(next?.value ?? '')).toEqual({ kind: 'machines', filters, page: 3 });
  });

  it('shows the machines of the requested page and the filters', () => {
    const { blocks, text } = list(machinesFixture(25), { page: 3, filters: { state: 'ready' } });
    expect(visibleText(blocks)).toContain('Filters: `state=ready`');
    expect(visibleText(blocks)).toContain('machine-20');
    expect(visibleText(blocks)).not.toContain('machine-19');
    expect(text).toMatch(/^25 machines · page 3 of 3: machine-20 \(Ready\), machine-21 \(Off\)/);
  });

  it('names the filters when nothing matches', () => {
    const { blocks, text } = list([], { page: 1, filters: { state: 'ready', region: 'West Coast (CA1)' } });
    expect(text).toBe(
      'No machines match `state=ready` · `region=West Coast (CA1)`. Try `/ps list` without filters.',
    );
    expect(blocks).toHaveLength(1);
  });

  it('says how to create a machine when the account has none', () => {
    expect(list([], { page: 1, filters: {} }).text).toContain('/ps create');
  });

  it('escapes filters and machine names', () => {
    const { blocks, text } = list([machineFixture({ name: MALICIOUS_NAME })], {
      page: 1,
      filters: { name: '<!here>' },
    });
    expect([...mrkdwnTexts(blocks), text].join('\n')).not.toMatch(/<(!channel|!here|@U1|https)/);
  });

  it('keeps every button value within 2000 characters even with long filters', () => {
    const filters = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`filter${i}`, 'v'.repeat(150)]));
    const { blocks } = list(machinesFixture(30), { page: 2, filters });
    expect(pager(blocks)).toEqual([]);
    expect(visibleText(blocks)).toContain('too long to page through');
  });
});
