import { describe, expect, it } from 'vitest';
import { decodeMachineRef } from '../../../../src/features/machines/blocks/machine-ref.js';
import { reminderMessage } from '../../../../src/features/reminders/blocks/reminder.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { machineFixture, machinesFixture } from '../../../slack/block-kit/fixtures.js';
import { buttons, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function reminder(...args: Parameters<typeof reminderMessage>) {
  const message = reminderMessage(...args);
  assertBlockKitLimits(message);
  return message;
}

describe('reminderMessage', () => {
  it('offers Stop (confirmed), Snooze 1h and Keep running for each machine, carrying its id and name', () => {
    const machines = [machineFixture(), machineFixture({ id: 'ps2', name: 'cpu-2', state: 'serviceready' })];
    const { blocks, text } = reminder(machines);
    expect(text).toBe('⏰ 2 machines still running: gpu-1, cpu-2');
    const all = buttons(blocks);
    expect(all.map((button) => button.action_id)).toEqual([
      ActionId.reminderStop,
      ActionId.reminderSnooze,
      ActionId.reminderKeep,
      ActionId.reminderStop,
      ActionId.reminderSnooze,
      ActionId.reminderKeep,
    ]);
    expect(all[0]?.confirm?.title?.text).toBe('Stop gpu-1?');
    expect(all.slice(3).map((button) => decodeMachineRef(button.value ?? ''))).toEqual(
      Array(3).fill({ id: 'ps2', name: 'cpu-2' }),
    );
    expect(visibleText(blocks)).toContain('*cpu-2* · 🟠 Service ready · P5000 · East Coast (NY2)');
  });

  it('stays within 50 blocks for many machines and says how many were left out', () => {
    const { blocks } = reminder(machinesFixture(40));
    expect(blocks.length).toBeLessThanOrEqual(50);
    const shown = blocks.filter((block) => block.type === 'actions').length;
    expect(visibleText(blocks)).toContain(
      `…and ${40 - shown} more machines still running, too many for one message. Stop all stops every machine of this reminder, these too.`,
    );
    // Stop all names all 40, confirmed with how many.
    const stopAll = buttons(blocks).find((button) => button.action_id === ActionId.reminderStopAll);
    expect(stopAll?.text.text).toBe('Stop all 40');
    expect(stopAll?.confirm?.title?.text).toBe('Stop all 40 machines?');
    expect(stopAll?.value?.split(',')).toHaveLength(40);
  });

  it('sends more machines than one Stop all can name to /ps list instead', () => {
    const many = Array.from({ length: 300 }, (_, i) =>
      machineFixture({ id: `psmachine${String(i).padStart(4, '0')}`, name: `machine-${i}` }),
    );
    const { blocks } = reminder(many);
    expect(buttons(blocks).some((button) => button.action_id === ActionId.reminderStopAll)).toBe(false);
    expect(visibleText(blocks)).toContain('`/ps list state=ready` shows them with their Stop buttons');
  });

  it('says nothing is running for an empty list', () => {
    expect(reminder([]).text).toBe('Nothing is running. 🌙');
  });
});
