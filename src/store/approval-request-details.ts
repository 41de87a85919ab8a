// What an approval request carries beyond its columns, by kind: a create's parameters and estimated
// rate, a power request's owner. Stored as JSON in `approval_requests.details` and parsed here, once,
// as the row is read, so every reader gets a typed value. The schemas accept every shape this bot has
// written (older rows lack `asked`, and a power request's details were once `{}`), and ignore keys
// they do not know, so no row written before them becomes unreadable.
import { z } from 'zod';

export type RequestKind = 'create' | 'start' | 'stop' | 'restart';
export type PowerKind = Exclude<RequestKind, 'create'>;

/**
 * A start or create the budget gate stopped: whose budget was spent ('team' or a Slack user id) and
 * what it stood at. Its approval runs with the requester's own key, and may raise that budget.
 */
const overBudgetSchema = z.object({
  budget: z.string().min(1),
  amountCents: z.number().int().nonnegative(),
  spentCents: z.number().int().nonnegative(),
});

/** Shared by every kind. */
const askedFields = {
  overBudget: overBudgetSchema.optional(),
  /** Who the request was sent to, as the receipt names them (`<#C1>`, `<@U1>, <@U2>`). */
  asked: z.string().optional(),
  /** The Slack users it was sent to, when not to a channel: /ps requests lists it for them alone. */
  approvers: z.array(z.string()).optional(),
};

const createDetailsSchema = z.object({
  /**
   * The create parameters as the requester gave them (their team and their own user id added). Kept
   * as given: the approval checks them against the approver's account and template when it acts.
   */
  params: z.record(z.string(), z.unknown()),
  /** The template's label as Paperspace listed it when the request was opened, shown instead of its id. */
  templateLabel: z.string().optional(),
  /** Dollars an hour for a machine of this type, as text ("0.51"); null when none could be read. */
  hourlyRate: z.string().nullable().optional(),
  /**
   * Where hourlyRate came from: the account's machines of the type, or Paperspace's published list
   * price (shown as one). Rows written before it read as the account's, which is all they held.
   */
  hourlyRateBasis: z.enum(['account', 'list-price']).optional(),
  /** Why the requester wants it, in their words (a Workflow Builder step's Reason input). */
  reason: z.string().optional(),
  /** How the approvers were chosen when Paperspace did not list the team's administrators. */
  approverBasis: z.enum(['listed', 'learned', 'unknown']).optional(),
  ...askedFields,
});

const powerDetailsSchema = z.object({
  /** The owner's Paperspace user id: whoever linked that account decides. */
  ownerPaperspaceId: z.string().optional(),
  /** How Paperspace names an owner who has not linked a key (the request waits in a channel). */
  ownerName: z.string().optional(),
  /** No owner by the owner rule (v1): the team's administrators were asked, and Paperspace judges each key. */
  ownerUnknown: z.literal(true).optional(),
  ...askedFields,
});

const requestedSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('create'), details: createDetailsSchema }),
  z.object({ kind: z.enum(['start', 'stop', 'restart']), details: powerDetailsSchema }),
]);

export type CreateDetails = z.infer<typeof createDetailsSchema>;
export type OverBudget = z.infer<typeof overBudgetSchema>;
export type PowerDetails = z.infer<typeof powerDetailsSchema>;
export type RequestDetails = CreateDetails | PowerDetails;
/** A request's kind with the details of that kind: `kind` narrows `details`. */
export type Requested = z.infer<typeof requestedSchema>;

/** The details of a request of this kind, or why they cannot be read (never their values). */
export function parseRequested(
  kind: string,
  details: unknown,
): { ok: true; value: Requested } | { ok: false; problem: string } {
  const parsed = requestedSchema.safeParse({ kind, details });
  if (parsed.success) return { ok: true, value: parsed.data };
  const problem = parsed.error.issues
    .map((issue) => `${issue.path.join('.') || 'the request'}: ${issue.message}`)
    .join('; ');
  return { ok: false, problem };
}

/** The stored JSON text of a request's details, or why it is not JSON. */
export function readRequested(
  kind: string,
  json: string,
): { ok: true; value: Requested } | { ok: false; problem: string } {
  let details: unknown;
  try {
    details = JSON.parse(json);
  } catch {
    return { ok: false, problem: 'details: not JSON' };
  }
  return parseRequested(kind, details);
}
