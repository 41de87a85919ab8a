import type { SectionBlock } from '@slack/types';
import { describe, expect, it } from 'vitest';
import {
  type AvailabilityResult,
  availabilityGrid,
} from '../../../../src/features/catalog/blocks/availability.js';
import { visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function grid(results: AvailabilityResult[]) {
  const message = availabilityGrid(results);
  assertBlockKitLimits(message);
  return message;
}

const sections = (blocks: ReturnType<typeof grid>['blocks']) =>
  blocks.filter((block): block is SectionBlock => block.type === 'section');

describe('availabilityGrid', () => {
  it('shows one section per region in canonical order with a mark per GPU type', () => {
    const { blocks, text } = grid([
      { region: 'Europe (AMS1)', machineType: 'P4000', available: false },
      { region: 'East Coast (NY2)', machineType: 'V100', available: true },
      { region: 'East Coast (NY2)', machineType: 'P4000', available: 'error' },
      { region: 'West Coast (CA1)', machineType: 'P4000', available: true },
    ]);
    const rows = sections(blocks).map((section) => [
      section.text?.text,
      ...(section.fields ?? []).map((f) => f.text),
    ]);
    expect(rows).toEqual([
      ['*West Coast (CA1)*', '✅ P4000', '— V100'],
      ['*East Coast (NY2)*', '⚠️ P4000', '✅ V100'],
      ['*Europe (AMS1)*', '❌ P4000', '— V100'],
    ]);
    expect(visibleText(blocks)).toContain(
      '✅ available · ❌ not available now · — not offered or not checked · ⚠️ check failed',
    );
    expect(text).toBe('Available now: V100 in East Coast (NY2), P4000 in West Coast (CA1)');
  });

  it('says so when nothing is available', () => {
    expect(grid([{ region: 'Europe (AMS1)', machineType: 'V100', available: false }]).text).toBe(
      'No checked GPU type is available right now.',
    );
    expect(grid([]).blocks).toHaveLength(1);
  });

  it('splits a region over sections when there are more types than a section has fields', () => {
    const results = Array.from({ length: 12 }, (_, i) => ({
      region: 'Europe (AMS1)',
      machineType: `T${i}`,
      available: i % 2 === 0,
    }));
    const [first, second] = sections(grid(results).blocks);
    expect(first?.fields).toHaveLength(10);
    expect(second?.text?.text).toBe('*Europe (AMS1)* (continued)');
    expect(second?.fields).toHaveLength(2);
  });

  it('calls the grid machine availability once it holds a type that is not a dedicated GPU (v1)', () => {
    const { blocks, text } = grid([
      { region: 'West Coast (CA1)', machineType: 'C4', available: false },
      { region: 'West Coast (CA1)', machineType: 'A100', available: false },
    ]);
    expect(visibleText(blocks)).toContain('Machine availability');
    expect(visibleText(blocks)).not.toContain('GPU availability');
    expect(text).toBe('No checked machine type is available right now.');
  });
});
