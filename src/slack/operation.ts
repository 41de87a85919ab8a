// An operation is one thing a person can ask the bot to do, declared once by the feature that owns it:
// its words and help for `/ps`, the reader of typed text, its parameters as a zod schema with
// descriptions (what another front door, such as Slackbot's MCP client, takes as JSON), whether it only
// reads, and what runs it. The reader and the schema describe the same parameters: the compiler holds
// them to one type, and a test holds every example in the help to the schema.
import type { z } from 'zod';
import type { CommandHandler } from './command-context.js';
import type { CommandDefinition } from './command-language/command-definition.js';
import type { ReceiptAsker, RequestReceipt } from './request-receipt.js';

export interface Operation<Name extends string = string, Params = unknown, Deps = unknown>
  extends CommandDefinition<Name, Params> {
  /** `read` only looks; `change` changes something in Paperspace or in what the bot keeps. */
  readonly kind: 'read' | 'change';
  readonly params: z.ZodType<Params>;
  /** How Slackbot's MCP client is offered it (mcp/); an operation without one is not a tool. */
  readonly tool?: OperationTool;
  /**
   * A change whose person must hear back even if the replica serving it dies after the ack: its
   * receipt, stored before the ack (request-receipt.ts) and handed to `run` in the context. Undefined
   * for a use of the operation that changes nothing by itself (a form that opens).
   */
  receive?(params: Params, asker: ReceiptAsker, deps: Deps): RequestReceipt | undefined;
  /**
   * Runs it for the person in `context`, with the deps of the feature that owns it (with this request's
   * logger). A method, so an operation typed with its feature's deps still fits a list of operations.
   */
  run(params: Params, context: Parameters<CommandHandler<Params>>[1], deps: Deps): Promise<void>;
}

/**
 * An operation as a tool of Slackbot's MCP client. A read runs when Slackbot calls it; a change is only
 * proposed, and runs when the person confirms it in Slack. Its words are the same for everyone: a
 * description never holds a person's data, which a model would read as instructions.
 */
export interface OperationTool {
  /** Lower-case words joined by underscores, unique among the tools (`stop_machine`). */
  readonly name: string;
  /** A short title people may be shown. */
  readonly title: string;
  /** What it does and when to choose it, for the model that picks a tool from a person's words. */
  readonly description: string;
  /** A change that takes something away (stopping a machine); MCP's destructiveHint. */
  readonly destructive?: boolean;
  /** Doing it twice does no more than once; MCP's idempotentHint. */
  readonly idempotent?: boolean;
  /** What Slackbot is told when the operation answers nothing at once (it posts later, in the DM). */
  readonly followUp?: string;
}

/**
 * Declares an operation. Its parameters' type is the schema's: the reader must produce exactly that,
 * and the handler receives exactly that.
 */
export function defineOperation<const Name extends string, Schema extends z.ZodType, Deps = unknown>(
  operation: Operation<Name, NoInfer<z.output<Schema>>, Deps> & { readonly params: Schema },
): Operation<Name, z.output<Schema>, Deps> {
  return operation;
}

/**
 * A command as read: its name with its parameters. A command without parameters has the schema of
 * an empty object, which zod types as an index signature of never: it adds nothing to the name.
 */
export type CommandOf<O> =
  O extends Operation<infer Name, infer Params>
    ? { name: Name } & (string extends keyof Params ? unknown : Params)
    : never;
