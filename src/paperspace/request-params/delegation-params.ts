// The parameters of a resource delegation (the contract's way to share machines).
import { z } from 'zod';
import { mustBe, text } from './fields.js';

export const createDelegationParamsSchema = z.strictObject({
  // The contract makes the list optional, but a delegation for no machine grants nothing.
  machineIds: z
    .array(text(), { error: mustBe('a list of machine ids') })
    .min(1, { error: 'must name at least one machine' }),
});
export type CreateDelegationParams = z.input<typeof createDelegationParamsSchema>;
