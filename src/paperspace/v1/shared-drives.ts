// Shared drives in v1: plain REST with the same Bearer key, so no GraphQL access token is needed.
import { segment, sharedDriveSubject, validSharedDriveId } from '../path-ids.js';
import { parseRequest } from '../request-params/parse-request.js';
import {
  createSharedDriveParamsSchema,
  sharedDriveListParamsSchema,
} from '../request-params/shared-drive-params.js';
import type { SharedDrivesResource } from '../resources.js';
import type { SharedDrive } from '../schemas.js';
import { sendChange } from '../send-change.js';
import type { V1Context } from './context.js';
import { regionToV1, sharedDriveFromV1 } from './mapping.js';
import { v1Pages } from './pages.js';
import { v1SharedDriveSchema } from './wire.js';

const ADMIN_HINT = 'Only team administrators can list, create or delete shared drives.';

export function createV1SharedDrivesResource(context: V1Context): SharedDrivesResource {
  const { core, url } = context;
  return {
    async list(params = {}, options) {
      const { first } = parseRequest(
        sharedDriveListParamsSchema,
        params,
        'sharedDrives.list',
        'list shared drives',
      );
      const drives: SharedDrive[] = [];
      for await (const drive of v1Pages(context, {
        ...options,
        operation: 'sharedDrives.list',
        action: 'list shared drives',
        path: '/shared-drives',
        item: v1SharedDriveSchema,
      })) {
        drives.push(sharedDriveFromV1(drive));
        if (first !== undefined && drives.length >= first) break;
      }
      return drives;
    },

    async create(params, options) {
      const action = `create shared drive ${params?.name ?? ''}`.trim();
      const input = parseRequest(createSharedDriveParamsSchema, params, 'sharedDrives.create', action);
      const response = await core.send({
        ...options,
        operation: 'sharedDrives.create',
        action,
        method: 'POST',
        url: url('/shared-drives'),
        // v1's size is in gigabytes, as the form asks.
        body: {
          name: input.name,
          size: input.sizeGiB,
          region: regionToV1(input.region),
          networkId: input.networkId,
        },
        credential: 'bearerKey',
        schema: v1SharedDriveSchema,
        idempotent: false,
        permissionHint: ADMIN_HINT,
      });
      return sharedDriveFromV1(response.data);
    },

    async delete(sharedDriveId, options) {
      const action = `delete shared drive ${sharedDriveId}`;
      const id = validSharedDriveId(sharedDriveId, 'sharedDrives.delete', action);
      await sendChange(core, {
        ...options,
        operation: 'sharedDrives.delete',
        action,
        method: 'DELETE',
        url: url(`/shared-drives/${segment(id)}`),
        credential: 'bearerKey',
        subject: sharedDriveSubject(id),
        permissionHint: ADMIN_HINT,
      });
      return { id };
    },
  };
}
