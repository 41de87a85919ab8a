// Ids typed in Slack that a request puts in its URL path and names in its errors, treated alike by
// both dialects: checked by their request schema before anything is sent, then encoded.
import { z } from 'zod';
import type { ApiErrorSubject } from './errors.js';
import { machineIdSchema } from './request-params/machine-params.js';
import { parseRequest } from './request-params/parse-request.js';
import { scriptIdSchema } from './request-params/script-params.js';
import { sharedDriveIdSchema } from './request-params/shared-drive-params.js';

// Built once: zod compiles a schema on its first parse, which costs far more than the parse itself.
const machineIdParamsSchema = z.object({ machineId: machineIdSchema });
const scriptIdParamsSchema = z.object({ scriptId: scriptIdSchema });
const sharedDriveIdParamsSchema = z.object({ id: sharedDriveIdSchema });

/** The machine id, or a RequestValidationError naming `machineId`; nothing is sent. */
export const validMachineId = (machineId: string, operation: string, action: string): string =>
  parseRequest(machineIdParamsSchema, { machineId }, operation, action).machineId;

export const validScriptId = (scriptId: string, operation: string, action: string): string =>
  parseRequest(scriptIdParamsSchema, { scriptId }, operation, action).scriptId;

export const validSharedDriveId = (id: string, operation: string, action: string): string =>
  parseRequest(sharedDriveIdParamsSchema, { id }, operation, action).id;

export const machineSubject = (id: string): ApiErrorSubject => ({ kind: 'machine', id });
export const scriptSubject = (id: string): ApiErrorSubject => ({ kind: 'script', id });
export const sharedDriveSubject = (id: string): ApiErrorSubject => ({ kind: 'shared drive', id });

/** Path segments are user input (ids typed in Slack): encoded so they cannot change the path. */
export const segment = (id: string) => encodeURIComponent(id);
