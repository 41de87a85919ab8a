import { describe, expect, it } from 'vitest';
import { machineEventsLine } from '../../../../src/features/machines/blocks/machine-events.js';
import type { MachineEvent } from '../../../../src/paperspace/schemas.js';

function event(overrides: Partial<MachineEvent>): MachineEvent {
  return {
    name: 'start',
    state: 'done',
    errorMsg: '',
    handle: 'h-1',
    dtModified: '2024-05-15T09:02:00.000Z',
    dtFinished: '2024-05-15T09:02:00.000Z',
    dtCreated: '2024-05-15T09:00:00.000Z',
    ...overrides,
  };
}

describe('machineEventsLine', () => {
  it('reads the newest-first events oldest first, each with its outcome and time', () => {
    const line = machineEventsLine([
      event({ name: 'stop', state: 'in progress', dtFinished: null, dtCreated: '2024-05-15T10:00:00.000Z' }),
      event({ name: 'create' }),
    ]);
    expect(line).toMatch(
      /^Recent: create ✅ <!date\^\d+\^[^|]+\|2024-05-15 09:02 UTC> → stop ⏳ <!date\^\d+\^[^|]+\|2024-05-15 10:00 UTC>$/,
    );
  });

  it('shows why an event failed, escaped', () => {
    const line = machineEventsLine([event({ state: 'error', errorMsg: '<!channel> out of capacity' })]);
    expect(line).toContain('start ❌ &lt;!channel&gt; out of capacity');
  });

  it('keeps to the five most recent events and says there were more', () => {
    const events = Array.from({ length: 7 }, (_, i) => event({ name: `e${i}` }));
    const line = machineEventsLine(events) ?? '';
    expect(line.startsWith('Recent: … → e4')).toBe(true);
    expect(line).not.toContain('e5');
  });

  it('says nothing when there are no events', () => {
    expect(machineEventsLine([])).toBeUndefined();
  });
});
