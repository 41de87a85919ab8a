// Counting a listener's Paperspace calls from the emulator's request log, and proving two of them run
// side by side rather than one after the other (the /ps list, /ps show and App Home call tests).
import { expect, vi } from 'vitest';
import type { EmulatorControl } from '../../tools/emulator/control.js';

type Log = Pick<EmulatorControl, 'requests'>;

/** Where the log stands now: hand it to `pathsSince` after the listener answered. */
export const logMark = (state: Log): number => state.requests().length;

/** The paths of the Paperspace requests made since `mark`, in the order the emulator answered them. */
export function pathsSince(state: Log, mark: number): string[] {
  return state
    .requests()
    .slice(mark)
    .map((request) => request.path);
}

/**
 * Holds `apiKey`'s requests unanswered from now on; the returned wait lets them go once `count` are in
 * flight at once. Were the calls made one after the other, the second would never start while the
 * first is held, and the wait would time out.
 */
export function holdUntilInFlightTogether(
  state: Pick<EmulatorControl, 'hangKey' | 'releaseKey' | 'heldRequests'>,
  apiKey: string,
  count: number,
): () => Promise<void> {
  state.hangKey(apiKey);
  return async () => {
    try {
      await vi.waitFor(() => expect(state.heldRequests()).toBe(count));
    } finally {
      state.releaseKey(apiKey);
    }
  };
}
