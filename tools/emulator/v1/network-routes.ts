// Private networks (v1 only creates, renames and deletes them; the contract only lists them) and
// shared drives over REST with the same Bearer key (the contract needs GraphQL and an access token).
import { z } from 'zod';
import { conflict, notFound } from '../errors.js';
import { formatIpv4, parseIpv4 } from '../network-space.js';
import type { NetworkRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { paginate } from './paging.js';
import { asRegionId, requireRegion } from './regions.js';
import type { V1Context, V1Route } from './router.js';
import { networkV1View } from './views.js';

const createSchema = z.strictObject({
  name: z.string().trim().min(1),
  region: z.string().min(1),
  // Accepted; there are no machines outside networks to move in the emulator's sense of it.
  migrateMachines: z.boolean().optional(),
});

const updateSchema = z.strictObject({ name: z.string().trim().min(1).optional() });

function accountNetwork({ core, user, params }: V1Context): NetworkRecord {
  const network = core.world.networks.get(params.id ?? '');
  if (network?.accountId !== user.accountId) throw notFound(`Private network ${params.id} not found`);
  return network;
}

/** The first 10.x.y.0/24 no network in the world uses yet. */
function freeSubnet(context: V1Context): string {
  const used = new Set(
    [...context.core.world.networks.values()].map((network) => parseIpv4(network.network)),
  );
  const base = parseIpv4('10.0.0.0') ?? 0;
  for (let block = 1; block < 65536; block += 1) {
    const candidate = base + block * 256;
    if (!used.has(candidate)) return formatIpv4(candidate);
  }
  throw conflict('No private address space left for another network');
}

function listNetworks(context: V1Context): Reply {
  const views = [...context.core.world.networks.values()]
    .filter((network) => network.accountId === context.user.accountId)
    .map(networkV1View);
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { dtCreated: (network) => network.dtCreated, name: (network) => network.name },
        key: (network) => network.id,
        filters: {
          name: (network, value) => network.name === value,
          region: (network, value) => network.region === asRegionId(value),
        },
      },
      context.paging,
    ),
  );
}

function createNetwork(context: V1Context): Reply {
  const { core, user } = context;
  const request = parseV1Body(createSchema, context.body);
  const network: NetworkRecord = {
    id: core.ids.next('n'),
    name: request.name,
    region: requireRegion('region', request.region),
    network: freeSubnet(context),
    netmask: '255.255.255.0',
    accountId: user.accountId,
    dtCreated: core.now(),
    allocated: new Set(),
  };
  core.world.networks.set(network.id, network);
  return json(networkV1View(network));
}

function updateNetwork(context: V1Context): Reply {
  const network = accountNetwork(context);
  const update = parseV1Body(updateSchema, context.body);
  if (update.name !== undefined) network.name = update.name;
  return json(networkV1View(network));
}

/** A network that machines or drives still use cannot go: they would lose their addresses. */
function deleteNetwork(context: V1Context): Reply {
  const network = accountNetwork(context);
  const { world } = context.core;
  const machines = [...world.machines.values()].filter((machine) => machine.networkId === network.id);
  const drives = [...world.drives.values()].filter((drive) => drive.networkId === network.id);
  if (machines.length + drives.length > 0) {
    throw conflict(
      `Private network ${network.id} is in use by ${machines.length} machine(s) and ${drives.length} shared drive(s)`,
    );
  }
  world.networks.delete(network.id);
  return json({ id: network.id });
}

export const v1NetworkRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/private-networks', handle: listNetworks },
  { method: 'POST', path: '/private-networks', handle: createNetwork },
  {
    method: 'GET',
    path: '/private-networks/:id',
    handle: (context) => json(networkV1View(accountNetwork(context))),
  },
  { method: 'PUT', path: '/private-networks/:id', handle: updateNetwork },
  { method: 'DELETE', path: '/private-networks/:id', handle: deleteNetwork },
];
