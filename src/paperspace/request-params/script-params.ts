// The parameters of script requests. Paperspace limits a script to 16 KB of UTF-8, whether typed or
// read from a file (script-to-create.ts).
import { z } from 'zod';
import { SCRIPT_MAX_BYTES } from '../constants.js';
import { choice, filterFlag, filterText, flag, mustBe, pathId, text } from './fields.js';

/** Script data limit check in UTF-8 bytes, shared by scriptText and the content of scriptFile. */
export function scriptSizeProblem(content: string): string | undefined {
  const bytes = Buffer.byteLength(content, 'utf8');
  if (bytes <= SCRIPT_MAX_BYTES) return undefined;
  return `is ${bytes} bytes of UTF-8; Paperspace limits a script to 16 KB (${SCRIPT_MAX_BYTES} bytes)`;
}

export const createScriptParamsSchema = z
  .strictObject({
    scriptName: text(),
    scriptText: z
      .string({ error: mustBe('text') })
      .min(1, { error: 'must not be empty' })
      .superRefine((content, ctx) => {
        const problem = scriptSizeProblem(content);
        if (problem) ctx.addIssue({ code: 'custom', message: problem });
      })
      .optional(),
    /** A path on this machine; the client reads it and sends its content (see scripts.create). */
    scriptFile: text().optional(),
    scriptDescription: text().optional(),
    isEnabled: flag().optional(),
    runOnce: flag().optional(),
    machineId: text().optional(),
  })
  .superRefine((params, ctx) => {
    if (params.scriptText === undefined && params.scriptFile === undefined) {
      ctx.addIssue({ code: 'custom', path: ['scriptText'], message: 'or scriptFile is required' });
    }
    if (params.scriptText !== undefined && params.scriptFile !== undefined) {
      ctx.addIssue({
        code: 'custom',
        path: ['scriptFile'],
        message: 'cannot be given with scriptText; give one',
      });
    }
  });
export type CreateScriptParams = z.input<typeof createScriptParamsSchema>;

export const scriptIdSchema = pathId();

export const scriptListFiltersSchema = z.strictObject({
  id: filterText(),
  ownerType: choice(['user', 'team']).optional(),
  ownerId: filterText(),
  name: filterText(),
  description: filterText(),
  dtCreated: filterText(),
  isEnabled: filterFlag(),
  runOnce: filterFlag(),
});
export type ScriptListFilters = z.input<typeof scriptListFiltersSchema>;
