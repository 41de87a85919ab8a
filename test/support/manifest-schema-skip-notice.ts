// Vitest global setup: says once, at the top of a run, why the manifest schema tests are skipped.
import { manifestSchemaSkipReason } from './manifest-schema-location.js';

export function setup(): void {
  if (manifestSchemaSkipReason !== undefined)
    process.stdout.write(`\nManifest schema tests skipped: ${manifestSchemaSkipReason}\n`);
}
