// Shared drives over REST: the same world operations as the contract's GraphQL (drives.ts).
import { z } from 'zod';
import { createDrive, deleteDrive, requireDriveAdmin, teamDrive } from '../drives.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { paginate } from './paging.js';
import { asRegionId, requireRegion } from './regions.js';
import type { V1Context, V1Route } from './router.js';
import { driveV1View } from './views.js';

const createSchema = z.strictObject({
  name: z.string().trim().min(1),
  networkId: z.string().min(1),
  region: z.string().min(1),
  /** Gigabytes, a whole number; answers carry bytes. */
  size: z.number().int().min(1),
});

const updateSchema = z.strictObject({ name: z.string().trim().min(1).optional() });

function listDrives(context: V1Context): Reply {
  const { core, user } = context;
  requireDriveAdmin(core, user);
  const views = [...core.world.drives.values()]
    .filter((drive) => drive.accountId === user.accountId)
    .map(driveV1View);
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { dtCreated: (drive) => drive.dtCreated, name: (drive) => drive.name },
        key: (drive) => drive.id,
        filters: {
          name: (drive, value) => drive.name === value,
          region: (drive, value) => drive.region === asRegionId(value),
        },
      },
      context.paging,
    ),
  );
}

function create(context: V1Context): Reply {
  const request = parseV1Body(createSchema, context.body);
  const drive = createDrive(context.core, context.user, {
    name: request.name,
    sizeGiB: request.size,
    region: requireRegion('region', request.region),
    networkId: request.networkId,
  });
  return json(driveV1View(drive));
}

function update(context: V1Context): Reply {
  const drive = teamDrive(context.core, context.user, context.params.id ?? '');
  const request = parseV1Body(updateSchema, context.body);
  if (request.name !== undefined) drive.name = request.name;
  return json(driveV1View(drive));
}

export const v1DriveRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/shared-drives', handle: listDrives },
  { method: 'POST', path: '/shared-drives', handle: create },
  {
    method: 'GET',
    path: '/shared-drives/:id',
    handle: (context) => json(driveV1View(teamDrive(context.core, context.user, context.params.id ?? ''))),
  },
  { method: 'PUT', path: '/shared-drives/:id', handle: update },
  {
    method: 'DELETE',
    path: '/shared-drives/:id',
    handle: (context) => json({ id: deleteDrive(context.core, context.user, context.params.id ?? '').id }),
  },
];
