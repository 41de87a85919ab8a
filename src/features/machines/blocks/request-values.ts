// Button values of the request buttons: written here, read back here, each checked with its schema
// (a client can send anything in a value).
import { z } from 'zod';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';

const createOfferSchema = z.object({ p: z.record(z.string(), z.unknown()) });
const powerOfferSchema = z.object({
  id: z.string().min(1),
  name: z.string(),
  verb: z.enum(['start', 'stop', 'restart']),
});
const approveRaiseSchema = z.object({ id: z.string().min(1), cents: z.number().int().min(100) });
const approveForSchema = z.object({ id: z.string().min(1), hours: z.number().int().min(1).max(24) });

export type PowerOffer = z.infer<typeof powerOfferSchema>;

/** Fields that would create a new team user; a request always assigns the machine to the requester. */
const NEW_USER_FIELDS = ['email', 'password', 'firstName', 'lastName'];

/** The parameters without new-user fields, so a password never rides in a button or a request. */
export function withoutNewUserFields(params: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(params).filter(([key]) => !NEW_USER_FIELDS.includes(key)));
}

export const encodeCreateOffer = (params: Record<string, unknown>) =>
  JSON.stringify({ p: withoutNewUserFields(params) });
export const decodeCreateOffer = (raw: string) =>
  decodeEncodedValue(createOfferSchema, raw, 'Send request button value').p;

export const encodePowerOffer = (offer: PowerOffer) => JSON.stringify(offer);
export const decodePowerOffer = (raw: string) =>
  decodeEncodedValue(powerOfferSchema, raw, 'Ask the owner button value');

export const encodeApproveFor = (value: z.infer<typeof approveForSchema>) => JSON.stringify(value);
export const decodeApproveFor = (raw: string) =>
  decodeEncodedValue(approveForSchema, raw, 'Approve for button value');

export const encodeApproveRaise = (value: z.infer<typeof approveRaiseSchema>) => JSON.stringify(value);
export const decodeApproveRaise = (raw: string) =>
  decodeEncodedValue(approveRaiseSchema, raw, 'Approve and raise button value');
