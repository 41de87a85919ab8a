import { describe, expect, it } from 'vitest';
import { failedEventSince, finishedAt } from '../../../src/features/watches/event-log.js';
import type { MachineEvent } from '../../../src/paperspace/schemas.js';

const at = (iso: string) => Date.parse(iso);
const event = (fields: Partial<MachineEvent> & { dtCreated: string }): MachineEvent => ({
  name: 'start',
  state: 'done',
  errorMsg: '',
  handle: 'h',
  dtModified: fields.dtCreated,
  dtFinished: null,
  ...fields,
});

const watchBegan = at('2024-05-15T09:00:00Z');

describe('failedEventSince', () => {
  it('finds a failure of the operation the watch waits for', () => {
    const failed = event({ dtCreated: '2024-05-15T09:00:01Z', state: 'error', errorMsg: 'no capacity' });
    expect(failedEventSince([failed], watchBegan)).toBe(failed);
  });

  it('counts an event with an error message as failed whatever its state says', () => {
    const failed = event({ dtCreated: '2024-05-15T09:00:01Z', state: 'done', errorMsg: 'disk full' });
    expect(failedEventSince([failed], watchBegan)).toBe(failed);
  });

  it('ignores failures of earlier operations, but allows for a clock a little behind ours', () => {
    const yesterday = event({ dtCreated: '2024-05-14T09:00:00Z', state: 'error', errorMsg: 'old' });
    const justBefore = event({ dtCreated: '2024-05-15T08:59:30Z', state: 'error', errorMsg: 'skewed' });
    expect(failedEventSince([yesterday], watchBegan)).toBeUndefined();
    expect(failedEventSince([yesterday, justBefore], watchBegan)).toBe(justBefore);
  });
});

describe('finishedAt', () => {
  const now = at('2024-05-15T09:05:00Z');

  it("answers when the newest operation of the watch finished, by Paperspace's log", () => {
    const done = event({ dtCreated: '2024-05-15T09:00:00Z', dtFinished: '2024-05-15T09:02:14Z' });
    expect(finishedAt([done], watchBegan, now)).toBe(at('2024-05-15T09:02:14Z'));
  });

  it('falls back to now when the log has no finished operation of the watch', () => {
    const running = event({ dtCreated: '2024-05-15T09:00:00Z', state: 'in progress' });
    const old = event({ dtCreated: '2024-05-01T09:00:00Z', dtFinished: '2024-05-01T09:01:00Z' });
    expect(finishedAt([running, old], watchBegan, now)).toBe(now);
  });
});
