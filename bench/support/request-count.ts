import type { RequestLogEntry, RunningEmulator } from '../../tools/emulator/index.js';

/**
 * The emulator's requests answered while `run` ran. The emulator keeps its most recent 10,000 requests,
 * so the last entry from before is found again by identity; `run` must make fewer than that.
 */
export async function requestsDuring(
  emulator: RunningEmulator,
  run: () => Promise<void>,
): Promise<RequestLogEntry[]> {
  const last = emulator.state.requests().at(-1);
  await run();
  const after = emulator.state.requests();
  if (last === undefined) return [...after];
  const index = after.lastIndexOf(last);
  if (index === -1) throw new Error('more requests than the emulator log keeps; count in smaller steps');
  return after.slice(index + 1);
}
