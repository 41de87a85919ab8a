import type { SharedDrivesResource } from '../resources.js';
import {
  createSharedDriveDataSchema,
  deleteSharedDriveDataSchema,
  sharedDrivesDataSchema,
} from '../schemas.js';
import {
  askSharedDriveCreate,
  askSharedDriveDelete,
  askSharedDriveList,
  SHARED_DRIVES_HINT,
} from '../shared-drive-requests.js';
import type { ResourceContext } from './context.js';

const DRIVE_FIELDS = 'id name mountPoint size username password region { name }';

// `$first: Int!` is only declared when a count is given: a non-null variable fits both a nullable
// and a required `first` argument, and leaving the argument out lets the server apply its default.
const SHARED_DRIVES_QUERY = `query SharedDrives { sharedDrives { nodes { ${DRIVE_FIELDS} } } }`;
const FIRST_SHARED_DRIVES_QUERY = `query SharedDrives($first: Int!) { sharedDrives(first: $first) { nodes { ${DRIVE_FIELDS} } } }`;
const CREATE_SHARED_DRIVE_MUTATION =
  'mutation CreateSharedDrive($input: CreateSharedDriveInput!) { createSharedDrive(input: $input) { sharedDrive { id name } } }';
const DELETE_SHARED_DRIVE_MUTATION =
  'mutation DeleteSharedDrive($input: DeleteSharedDriveInput!) { deleteSharedDrive(input: $input) { sharedDrive { id } } }';

export function createSharedDrivesResource({ graphql }: ResourceContext): SharedDrivesResource {
  return {
    async list(params = {}, options) {
      const { request, first } = askSharedDriveList(params);
      const data = await graphql({
        ...options,
        ...request,
        query: first === undefined ? SHARED_DRIVES_QUERY : FIRST_SHARED_DRIVES_QUERY,
        variables: first === undefined ? {} : { first },
        dataSchema: sharedDrivesDataSchema,
        idempotent: true,
        permissionHint: SHARED_DRIVES_HINT,
      });
      return data.sharedDrives.nodes;
    },

    async create(params, options) {
      const { request, input } = askSharedDriveCreate(params);
      const data = await graphql({
        ...options,
        ...request,
        query: CREATE_SHARED_DRIVE_MUTATION,
        // The contract's input names: size in GiB, and the region's name as regionId.
        variables: {
          input: {
            name: input.name,
            size: input.sizeGiB,
            regionId: input.region,
            networkId: input.networkId,
          },
        },
        dataSchema: createSharedDriveDataSchema,
        idempotent: false,
      });
      return data.createSharedDrive.sharedDrive;
    },

    async delete(sharedDriveId, options) {
      const { id, request } = askSharedDriveDelete(sharedDriveId);
      const data = await graphql({
        ...options,
        ...request,
        query: DELETE_SHARED_DRIVE_MUTATION,
        variables: { input: { id } },
        dataSchema: deleteSharedDriveDataSchema,
        idempotent: false,
      });
      return data.deleteSharedDrive.sharedDrive;
    },
  };
}
