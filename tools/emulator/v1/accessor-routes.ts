// Accessors: team members given explicit access to a machine (the world's setMachineAccess grants).
// Listing needs sight of the machine; adding and removing need its owner or a team administrator.
import { z } from 'zod';
import { requireManager } from '../auth.js';
import { badRequest, notFound } from '../errors.js';
import type { MachineRecord, UserRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import { parseV1Body } from './errors.js';
import { v1Machine } from './machine-routes.js';
import { paginate } from './paging.js';
import type { V1Context, V1Route } from './router.js';
import { userV1View } from './views.js';

const accessorView = (user: UserRecord) => ({ user: userV1View(user), dtDeleted: null });

function accessorsOf(context: V1Context, machine: MachineRecord): UserRecord[] {
  return [...machine.accessorIds].flatMap((userId) => {
    const user = context.core.world.users.get(userId);
    return user ? [user] : [];
  });
}

function listAccessors(context: V1Context): Reply {
  const accessors = accessorsOf(context, v1Machine(context)).map(accessorView);
  return json(
    paginate(
      accessors,
      context.query,
      { orderBy: { id: (accessor) => accessor.user.id }, key: (accessor) => accessor.user.id },
      context.paging,
    ),
  );
}

function getAccessor(context: V1Context): Reply {
  const machine = v1Machine(context);
  const userId = context.params.userId ?? '';
  const accessor = accessorsOf(context, machine).find((user) => user.id === userId);
  if (!accessor) throw notFound(`User ${userId} is not an accessor of machine ${machine.id}`);
  return json(accessorView(accessor));
}

const addSchema = z.strictObject({ userId: z.string().min(1) });

function addAccessor(context: V1Context): Reply {
  const machine = v1Machine(context);
  requireManager(context.core, context.user, machine, 'change access to');
  const { userId } = parseV1Body(addSchema, context.body);
  const user = context.core.world.users.get(userId);
  if (user?.accountId !== machine.accountId)
    throw badRequest(`userId: ${userId} is not a member of this team`);
  if (userId === machine.ownerId)
    throw badRequest(`userId: ${userId} owns the machine and always has access`);
  machine.accessorIds.add(userId);
  return json(accessorView(user));
}

function removeAccessor(context: V1Context): Reply {
  const machine = v1Machine(context);
  requireManager(context.core, context.user, machine, 'change access to');
  const userId = context.params.userId ?? '';
  const user = context.core.world.users.get(userId);
  if (!user || !machine.accessorIds.has(userId)) {
    throw notFound(`User ${userId} is not an accessor of machine ${machine.id}`);
  }
  machine.accessorIds.delete(userId);
  return json({ user: userV1View(user), dtDeleted: new Date(context.core.now()).toISOString() });
}

export const v1AccessorRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/machines/:id/accessors', handle: listAccessors },
  { method: 'POST', path: '/machines/:id/accessors', handle: addAccessor },
  { method: 'GET', path: '/machines/:id/accessors/:userId', handle: getAccessor },
  { method: 'DELETE', path: '/machines/:id/accessors/:userId', handle: removeAccessor },
];
