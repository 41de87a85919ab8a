// The emulator's public surface: start it, steer it, seed it.
export { type Clock, createFakeClock, type FakeClock, seededRandom } from './clock.js';
export type {
  BulkMachines,
  EmulatorControl,
  EmulatorUser,
  MachineSnapshot,
  RequestLogEntry,
} from './control.js';
export { DEMO_SEED } from './demo-seed.js';
export type { ScheduledFailure } from './faults.js';
export { parseSeed, type Seed, SeedError, type SeedInput } from './seed-schema.js';
export { type EmulatorOptions, type RunningEmulator, startEmulator } from './server.js';
