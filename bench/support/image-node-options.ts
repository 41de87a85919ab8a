// The image's NODE_OPTIONS (its heap caps), read from the Dockerfile so that the benchmarks run the
// bot with the options production runs it with, and the two cannot drift.
import { readFileSync } from 'node:fs';
import { runtimeEnvironment } from '../../test/support/dockerfile.js';

export const IMAGE_NODE_OPTIONS: string | undefined = runtimeEnvironment(
  readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8'),
).NODE_OPTIONS;
