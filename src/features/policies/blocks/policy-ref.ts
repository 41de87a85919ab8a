// What a policy button names: the machine, the rule and the stop it is about (so a click on a warning
// whose stop has moved on, or was kept, is told so), and for an administrator's Approve who asked.
import { z } from 'zod';
import { decodeEncodedValue } from '../../../slack/block-kit/encoded-value.js';

const MAX_NAME_IN_VALUE = 200;

const policyRefSchema = z.strictObject({
  id: z.string().min(1).max(255),
  name: z.string().max(MAX_NAME_IN_VALUE),
  kind: z.enum(['max_run', 'off_hours']),
  stopAt: z.number().int(),
  requester: z.string().max(64).optional(),
});
export type PolicyRef = z.infer<typeof policyRefSchema>;

export function encodePolicyRef(ref: PolicyRef): string {
  return JSON.stringify({ ...ref, name: ref.name.slice(0, MAX_NAME_IN_VALUE) });
}

export function decodePolicyRef(value: string): PolicyRef {
  return decodeEncodedValue(policyRefSchema, value, 'Policy button value');
}
