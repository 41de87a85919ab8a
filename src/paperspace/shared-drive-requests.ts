// What a shared-drive request asks, the same in both dialects (the contract's GraphQL and v1's REST):
// the operation, the action its errors name, the drive it is about and who may do it, its parameters
// checked before anything is sent. Each dialect then says how it goes over the wire.
import { sharedDriveSubject, validSharedDriveId } from './path-ids.js';
import { parseRequest } from './request-params/parse-request.js';
import {
  type CreateSharedDriveParams,
  createSharedDriveParamsSchema,
  type SharedDriveListParams,
  sharedDriveListParamsSchema,
} from './request-params/shared-drive-params.js';

export const SHARED_DRIVES_HINT = 'Only team administrators can list, create or delete shared drives.';

/** Without the hint, which only the contract's list has always given (v1's 403 on a list has none). */
export function askSharedDriveList(params: SharedDriveListParams) {
  const request = { operation: 'sharedDrives.list', action: 'list shared drives' };
  const { first } = parseRequest(sharedDriveListParamsSchema, params, request.operation, request.action);
  return { request, first };
}

export function askSharedDriveCreate(params: CreateSharedDriveParams) {
  const action = `create shared drive ${params?.name ?? ''}`.trim();
  const request = { operation: 'sharedDrives.create', action, permissionHint: SHARED_DRIVES_HINT };
  return { request, input: parseRequest(createSharedDriveParamsSchema, params, request.operation, action) };
}

export function askSharedDriveDelete(sharedDriveId: string) {
  const operation = 'sharedDrives.delete';
  const action = `delete shared drive ${sharedDriveId}`;
  const id = validSharedDriveId(sharedDriveId, operation, action);
  const request = { operation, action, subject: sharedDriveSubject(id), permissionHint: SHARED_DRIVES_HINT };
  return { id, request };
}
