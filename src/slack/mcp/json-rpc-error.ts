// An answer to an MCP request that never reached the MCP server (the request guard refused it, or its
// body was not JSON): a JSON-RPC error with no id, as the Streamable HTTP transport answers one itself.
import type { ServerResponse } from 'node:http';

/** JSON-RPC's codes (the SDK's ErrorCode), here without loading the SDK into the request guard. */
export const JsonRpcCode = {
  parseError: -32700,
  invalidRequest: -32600,
  internalError: -32603,
} as const;

export function jsonRpcError(
  response: ServerResponse,
  status: number,
  code: number,
  message: string,
  headers: Record<string, string> = {},
): void {
  response
    .writeHead(status, { ...headers, 'content-type': 'application/json' })
    .end(JSON.stringify({ jsonrpc: '2.0', error: { code, message }, id: null }));
}
