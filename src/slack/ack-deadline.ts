// Slack gives a request 3 seconds to be acked, counted from when it sent it, not from when a listener
// starts: the replay check's database write, parsing and unsealing come first. So a listener's time
// budget before its ack (a key check, a form's lookups) counts from the request's arrival, which each
// receiver stamps into the context (app.ts: customPropertiesExtractor).

/** The context property holding when the request arrived (epoch ms); Bolt merges it into `context`. */
export const ARRIVED_AT = 'slackArrivedAt';

/** Milliseconds left of `budgetMs` counted from the request's arrival (from now when unstamped). */
export function msLeftOf(context: Record<string, unknown>, budgetMs: number, now = Date.now()): number {
  const arrivedAt = context[ARRIVED_AT];
  const start = typeof arrivedAt === 'number' ? arrivedAt : now;
  return Math.max(0, start + budgetMs - now);
}
