// Shared drives in v1: plain REST with the same Bearer key, so no GraphQL access token is needed.
import { segment } from '../path-ids.js';
import type { SharedDrivesResource } from '../resources.js';
import type { SharedDrive } from '../schemas.js';
import { sendChange } from '../send-change.js';
import { askSharedDriveCreate, askSharedDriveDelete, askSharedDriveList } from '../shared-drive-requests.js';
import type { V1Context } from './context.js';
import { regionToV1, sharedDriveFromV1 } from './mapping.js';
import { v1Pages } from './pages.js';
import { v1SharedDriveSchema } from './wire.js';

export function createV1SharedDrivesResource(context: V1Context): SharedDrivesResource {
  const { core, url } = context;
  return {
    async list(params = {}, options) {
      const { request, first } = askSharedDriveList(params);
      const drives: SharedDrive[] = [];
      for await (const drive of v1Pages(context, {
        ...options,
        ...request,
        path: '/shared-drives',
        item: v1SharedDriveSchema,
      })) {
        drives.push(sharedDriveFromV1(drive));
        if (first !== undefined && drives.length >= first) break;
      }
      return drives;
    },

    async create(params, options) {
      const { request, input } = askSharedDriveCreate(params);
      const response = await core.send({
        ...options,
        ...request,
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
      });
      return sharedDriveFromV1(response.data);
    },

    async delete(sharedDriveId, options) {
      const { id, request } = askSharedDriveDelete(sharedDriveId);
      await sendChange(core, {
        ...options,
        ...request,
        method: 'DELETE',
        url: url(`/shared-drives/${segment(id)}`),
        credential: 'bearerKey',
      });
      return { id };
    },
  };
}
