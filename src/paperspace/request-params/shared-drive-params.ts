// The parameters of shared drive requests.
import { z } from 'zod';
import { positiveWholeNumber, regionSchema, text } from './fields.js';

export const sharedDriveListParamsSchema = z.strictObject({ first: positiveWholeNumber().optional() });
export type SharedDriveListParams = z.input<typeof sharedDriveListParamsSchema>;

export const createSharedDriveParamsSchema = z.strictObject({
  name: text(),
  sizeGiB: positiveWholeNumber(),
  region: regionSchema,
  networkId: text(),
});
export type CreateSharedDriveParams = z.input<typeof createSharedDriveParamsSchema>;

export const sharedDriveIdSchema = text();
