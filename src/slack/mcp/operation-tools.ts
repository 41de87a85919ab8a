// The operations that declare a tool, as Slackbot's MCP client discovers them (tools/list): the name,
// title and description the operation gives, its parameters as JSON Schema made from the same zod
// schema `/ps` reads into, and the MCP annotations that follow from what it is. Every tool touches
// Paperspace, an open world; a read changes nothing, a change is only proposed (tool-calls).
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { z } from 'zod';
import type { Operation, OperationTool } from '../operation.js';

/** An operation offered to Slackbot, with its tool. */
export type ToolOperation = Operation & { readonly tool: OperationTool };

export function toolOperations(operations: readonly Operation[]): ToolOperation[] {
  const tools = operations.filter((operation): operation is ToolOperation => operation.tool !== undefined);
  const names = new Set<string>();
  for (const { tool } of tools) {
    if (!/^[a-z][a-z0-9_]*$/.test(tool.name))
      throw new Error(`The tool name "${tool.name}" is not snake_case`);
    if (names.has(tool.name)) throw new Error(`Two operations declare the tool "${tool.name}"`);
    names.add(tool.name);
  }
  return tools;
}

/** The tool as tools/list describes it. */
export function toolDefinition(operation: ToolOperation): Tool {
  const { tool } = operation;
  // The input side of the schema: a parameter with a default is one the caller may leave out.
  const schema = z.toJSONSchema(operation.params, { io: 'input' });
  const inputSchema: Tool['inputSchema'] = {
    type: 'object',
    // Each parameter's schema is an object: zod writes `true` only for z.any(), which no operation has.
    properties: (schema.properties ?? {}) as Record<string, object>,
    ...(schema.required === undefined ? {} : { required: schema.required }),
  };
  return {
    name: tool.name,
    title: tool.title,
    description:
      operation.kind === 'read'
        ? tool.description
        : `${tool.description} Nothing happens until the person confirms it: the bot sends them a message in Slack with Confirm and Cancel.`,
    inputSchema,
    annotations: {
      title: tool.title,
      readOnlyHint: operation.kind === 'read',
      destructiveHint: operation.kind === 'change' && tool.destructive === true,
      idempotentHint: tool.idempotent === true,
      openWorldHint: true,
    },
    _meta: { slack: { supportsBlockKit: true } },
  };
}
