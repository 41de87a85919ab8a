// Shared drives over GraphQL: a real schema executed by graphql-js, so any selection set a client
// writes works, and failures land in the `errors` array as a GraphQL server would put them.
import { buildSchema, GraphQLError, graphql } from 'graphql';
import { REGIONS, type Region } from '../../src/paperspace/constants.js';
import { GIB } from './catalog.js';
import { createDrive, deleteDrive, requireDriveAdmin } from './drives.js';
import { EmulatorError, graphqlErrorCode } from './errors.js';
import type { DriveRecord, UserRecord } from './records.js';
import type { Reply } from './router.js';
import type { EmulatorCore } from './world.js';

const schema = buildSchema(`
  type Region {
    name: String!
  }

  type SharedDrive {
    id: ID!
    name: String!
    mountPoint: String!
    "Bytes."
    size: Float!
    "Masked with asterisks."
    username: String!
    "Masked with asterisks."
    password: String!
    region: Region!
  }

  type SharedDriveConnection {
    nodes: [SharedDrive!]!
  }

  input CreateSharedDriveInput {
    name: String!
    "GiB."
    size: Float!
    "A region name, such as \\"East Coast (NY2)\\"."
    regionId: String!
    networkId: String!
  }

  input DeleteSharedDriveInput {
    id: ID!
  }

  type SharedDrivePayload {
    sharedDrive: SharedDrive!
  }

  type Query {
    "The team's shared drives, optionally only those with this name or in this region."
    sharedDrives(first: Int, name: String, region: String): SharedDriveConnection
  }

  type Mutation {
    createSharedDrive(input: CreateSharedDriveInput!): SharedDrivePayload
    deleteSharedDrive(input: DeleteSharedDriveInput!): SharedDrivePayload
  }
`);

const MASK = '********';

function fail(status: number, message: string): never {
  throw new GraphQLError(message, { extensions: { code: graphqlErrorCode(status), status } });
}

function driveView(drive: DriveRecord) {
  return {
    id: drive.id,
    name: drive.name,
    mountPoint: `\\\\${drive.ipAddress}\\${drive.id}`,
    size: drive.sizeGiB * GIB,
    username: MASK,
    password: MASK,
    region: { name: drive.region },
  };
}

interface DrivesContext {
  readonly core: EmulatorCore;
  readonly user: UserRecord;
}

/** Runs a world operation; its EmulatorError becomes a GraphQL error in the `errors` array. */
function inWorld<T>(operation: () => T): T {
  try {
    return operation();
  } catch (error) {
    if (error instanceof EmulatorError) fail(error.status, error.message);
    throw error;
  }
}

interface CreateInput {
  readonly name: string;
  readonly size: number;
  readonly regionId: string;
  readonly networkId: string;
}

const rootValue = {
  sharedDrives(
    args: { first?: number | null; name?: string | null; region?: string | null },
    context: DrivesContext,
  ) {
    inWorld(() => requireDriveAdmin(context.core, context.user));
    const first = args.first ?? undefined;
    if (first !== undefined && first < 0) fail(400, `first must not be negative, got ${first}`);
    const nodes = [...context.core.world.drives.values()]
      .filter((drive) => drive.accountId === context.user.accountId)
      .filter((drive) => args.name == null || drive.name === args.name)
      .filter((drive) => args.region == null || drive.region === args.region)
      .slice(0, first)
      .map(driveView);
    return { nodes };
  },

  createSharedDrive({ input }: { input: CreateInput }, { core, user }: DrivesContext) {
    inWorld(() => requireDriveAdmin(core, user));
    if (!(REGIONS as readonly string[]).includes(input.regionId)) {
      fail(400, `regionId must be one of ${REGIONS.join(', ')}, got "${input.regionId}"`);
    }
    const drive = inWorld(() =>
      createDrive(core, user, {
        name: input.name,
        sizeGiB: input.size,
        region: input.regionId as Region,
        networkId: input.networkId,
      }),
    );
    return { sharedDrive: driveView(drive) };
  },

  deleteSharedDrive({ input }: { input: { id: string } }, { core, user }: DrivesContext) {
    return { sharedDrive: driveView(inWorld(() => deleteDrive(core, user, input.id))) };
  },
};

/** Runs one GraphQL request for an authenticated user; a request that cannot run at all answers 400. */
export async function executeDrivesGraphql(
  core: EmulatorCore,
  user: UserRecord,
  body: unknown,
): Promise<Reply> {
  const request = (typeof body === 'object' && body !== null ? body : {}) as Record<string, unknown>;
  const { query, variables, operationName } = request;
  if (typeof query !== 'string' || query.trim() === '') {
    throw new EmulatorError(400, 'The request body needs a "query" string');
  }
  if (
    variables !== undefined &&
    variables !== null &&
    (typeof variables !== 'object' || Array.isArray(variables))
  ) {
    throw new EmulatorError(400, '"variables" must be an object');
  }
  const result = await graphql({
    schema,
    source: query,
    rootValue,
    contextValue: { core, user } satisfies DrivesContext,
    variableValues: (variables ?? undefined) as Record<string, unknown> | undefined,
    operationName: typeof operationName === 'string' ? operationName : undefined,
  });
  return { status: result.data === undefined ? 400 : 200, body: result };
}
