// Vitest global setup: says once, at the top of a run, why the MCP conformance tests are skipped.
import { mcpConformanceSkipReason } from './mcp-conformance.js';

export function setup(): void {
  if (mcpConformanceSkipReason !== undefined)
    process.stdout.write(`\nMCP conformance tests skipped: ${mcpConformanceSkipReason}\n`);
}
