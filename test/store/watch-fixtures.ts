// The watch the store tests start from: Ada's gpu-1 heading to ready, made at T0 with half an hour to
// get there; each test overrides what it is about.
import type { NewWatch } from '../../src/store/watches.js';

export const T0 = Date.UTC(2025, 0, 6, 9, 0);
export const MINUTE = 60_000;

export const newWatch = (overrides: Partial<NewWatch> = {}): NewWatch => ({
  teamId: 'T1',
  userId: 'U_ADA',
  machineId: 'psgpu1',
  machineName: 'gpu-1',
  targetState: 'ready',
  channel: 'C1',
  createdAt: T0,
  deadlineAt: T0 + 30 * MINUTE,
  ...overrides,
});
