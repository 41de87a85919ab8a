// The value of /ps spend's Previous / Next: which billing month, and which page of people. It comes
// back from Slack, so it is read with a schema, never trusted.
import { z } from 'zod';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';

const spendPageSchema = z.strictObject({
  month: z.string().regex(/^\d{4}-(0[1-9]|1[0-2])$/),
  page: z.number().int().min(1).max(10_000),
});
export type SpendPage = z.infer<typeof spendPageSchema>;

export function encodeSpendPage(value: SpendPage): string {
  return JSON.stringify({ month: value.month, page: value.page });
}

/** Throws an error naming what is wrong with a damaged value. */
export function decodeSpendPage(raw: string): SpendPage {
  return decodeEncodedValue(spendPageSchema, raw, 'Spend page button value');
}
