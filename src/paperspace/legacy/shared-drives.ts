// Shared drives, the contract's GraphQL operations: list, create and delete.
import { sharedDriveSubject, validSharedDriveId } from '../path-ids.js';
import { parseRequest } from '../request-params/parse-request.js';
import {
  createSharedDriveParamsSchema,
  sharedDriveListParamsSchema,
} from '../request-params/shared-drive-params.js';
import type { SharedDrivesResource } from '../resources.js';
import {
  createSharedDriveDataSchema,
  deleteSharedDriveDataSchema,
  sharedDrivesDataSchema,
} from '../schemas.js';
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

const ADMIN_HINT = 'Only team administrators can list, create or delete shared drives.';

export function createSharedDrivesResource({ graphql }: ResourceContext): SharedDrivesResource {
  return {
    async list(params = {}, options) {
      const { first } = parseRequest(
        sharedDriveListParamsSchema,
        params,
        'sharedDrives.list',
        'list shared drives',
      );
      const data = await graphql({
        ...options,
        operation: 'sharedDrives.list',
        action: 'list shared drives',
        query: first === undefined ? SHARED_DRIVES_QUERY : FIRST_SHARED_DRIVES_QUERY,
        variables: first === undefined ? {} : { first },
        dataSchema: sharedDrivesDataSchema,
        idempotent: true,
        permissionHint: ADMIN_HINT,
      });
      return data.sharedDrives.nodes;
    },

    async create(params, options) {
      const action = `create shared drive ${params?.name ?? ''}`.trim();
      const input = parseRequest(createSharedDriveParamsSchema, params, 'sharedDrives.create', action);
      const data = await graphql({
        ...options,
        operation: 'sharedDrives.create',
        action,
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
        permissionHint: ADMIN_HINT,
      });
      return data.createSharedDrive.sharedDrive;
    },

    async delete(sharedDriveId, options) {
      const action = `delete shared drive ${sharedDriveId}`;
      const id = validSharedDriveId(sharedDriveId, 'sharedDrives.delete', action);
      const data = await graphql({
        ...options,
        operation: 'sharedDrives.delete',
        action,
        query: DELETE_SHARED_DRIVE_MUTATION,
        variables: { input: { id } },
        dataSchema: deleteSharedDriveDataSchema,
        idempotent: false,
        subject: sharedDriveSubject(id),
        permissionHint: ADMIN_HINT,
      });
      return data.deleteSharedDrive.sharedDrive;
    },
  };
}
