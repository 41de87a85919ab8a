// The emulator's public surface: start it, steer it, seed it.
export { createFakeClock, type FakeClock, seededRandom } from './clock.js';
export type {
  EmulatorControl,
  EmulatorUser,
  RequestLogEntry,
} from './control.js';
export { DEMO_SEED } from './demo-seed.js';

export { parseSeed, SeedError, type SeedInput } from './seed-schema.js';
export { type EmulatorOptions, type RunningEmulator, startEmulator } from './server.js';
