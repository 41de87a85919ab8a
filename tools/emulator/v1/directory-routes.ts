// Team members, OS and custom templates, and machine type availability.
import { EMULATOR_MACHINE_TYPES } from '../catalog.js';
import { badRequest, notFound } from '../errors.js';
import { iso } from '../machine-view.js';
import { json, type Reply } from '../router.js';
import { isAvailable } from '../world.js';
import { paginate } from './paging.js';
import { requireRegion } from './regions.js';
import type { V1Context, V1Route } from './router.js';
import { namespaceOf } from './session-route.js';
import { customTemplateV1View, templateV1View, userV1View } from './views.js';

function teamUsers(context: V1Context): Reply {
  const { core, user, params } = context;
  // The typings name the path parameter the team's id; Paperspace's own CLI passes the namespace.
  // Both address the caller's team; another team's members are as invisible as a missing team.
  const account = core.world.accounts.get(user.accountId);
  const namespace = namespaceOf(account, user.accountId);
  if (params.teamId !== user.accountId && params.teamId !== namespace) {
    throw notFound(`Team ${params.teamId} not found`);
  }
  const members = core.world.users.ofAccount(user.accountId).map((member) => ({
    isAdmin: member.role === 'admin',
    isOwner: core.world.accounts.get(member.accountId)?.kind !== 'team',
    user: userV1View(member),
    dtConfirmed: iso(member.dtCreated),
  }));
  const role = context.query.get('role');
  if (role !== null && !['member', 'admin', 'owner'].includes(role)) {
    throw badRequest(`role must be member, admin or owner, got "${role}"`);
  }
  return json(
    paginate(
      members,
      context.query,
      {
        orderBy: { dtConfirmed: (member) => member.dtConfirmed },
        key: (member) => member.user.id,
        filters: {
          role: (member, value) =>
            value === 'owner' ? member.isOwner : value === 'admin' ? member.isAdmin : !member.isAdmin,
        },
      },
      context.paging,
    ),
  );
}

function osTemplates(context: V1Context): Reply {
  const views = [...context.core.world.templates.values()]
    .filter((template) => template.accountId === null)
    .map(templateV1View);
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { name: (template) => template.name },
        key: (template) => template.id,
        filters: { name: (template, value) => template.name === value },
      },
      context.paging,
    ),
  );
}

function customTemplates(context: V1Context): Reply {
  const views = [...context.core.world.templates.values()]
    .filter((template) => template.accountId === context.user.accountId)
    .map(customTemplateV1View);
  return json(
    paginate(
      views,
      context.query,
      {
        orderBy: { dtCreated: (template) => template.dtCreated, name: (template) => template.name },
        key: (template) => template.id,
        filters: {
          name: (template, value) => template.name === value,
          machineId: (template, value) => template.parentMachineId === value,
        },
      },
      context.paging,
    ),
  );
}

function availability({ core, query }: V1Context): Reply {
  const machineType = query.get('machineType');
  const regionText = query.get('region');
  if (!machineType) throw badRequest('machineType is required');
  if (!regionText) throw badRequest('region is required');
  const region = requireRegion('region', regionText);
  // v1 reports any type it sells, not only the contract's dedicated GPU types.
  if (!(EMULATOR_MACHINE_TYPES as readonly string[]).includes(machineType)) {
    throw badRequest(`machineType: unknown machine type "${machineType}"`);
  }
  return json({ available: isAvailable(core.world, region, machineType) });
}

export const v1DirectoryRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/teams/:teamId/users', handle: teamUsers },
  { method: 'GET', path: '/os-templates', handle: osTemplates },
  { method: 'GET', path: '/custom-templates', handle: customTemplates },
  { method: 'GET', path: '/machine-availability', handle: availability },
];
