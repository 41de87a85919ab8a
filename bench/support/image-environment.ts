// The environment the image tunes its runtime with, read from the Dockerfile so that the benchmarks run
// the bot as production runs it, and the two cannot drift: NODE_OPTIONS (V8's heap caps) and glibc's
// MALLOC_* settings (its allocator's arenas and thresholds). The image's other variables (NODE_ENV,
// PORT) describe a deployment, not the runtime, and each benchmark sets its own.
import { readFileSync } from 'node:fs';
import { runtimeEnvironment } from '../../test/support/dockerfile.js';

const tunesRuntime = (name: string) => name === 'NODE_OPTIONS' || name.startsWith('MALLOC_');

export const IMAGE_RUNTIME_ENV: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(
    runtimeEnvironment(readFileSync(new URL('../../Dockerfile', import.meta.url), 'utf8')),
  ).filter(([name]) => tunesRuntime(name)),
);

/** `NAME=value` pairs for a benchmark's setup text, or `none`. */
export function describeImageRuntime(): string {
  const pairs = Object.entries(IMAGE_RUNTIME_ENV).map(([name, value]) =>
    value.includes(' ') ? `${name}="${value}"` : `${name}=${value}`,
  );
  return pairs.length === 0 ? 'none' : pairs.join(' ');
}
