// Every v1 route, relative to the `/v1` base.
import { v1AccessorRoutes } from './accessor-routes.js';
import { v1DirectoryRoutes } from './directory-routes.js';
import { v1DriveRoutes } from './drive-routes.js';
import { v1EventRoutes } from './event-routes.js';
import { v1MachineActionRoutes } from './machine-actions.js';
import { v1MachineCreateRoutes } from './machine-create.js';
import { v1MachineRoutes } from './machine-routes.js';
import { v1NetworkRoutes } from './network-routes.js';
import type { V1Route } from './router.js';
import { v1ScriptRoutes } from './script-routes.js';
import { v1SessionRoutes } from './session-route.js';

export const V1_ROUTES: readonly V1Route[] = [
  ...v1MachineCreateRoutes,
  ...v1MachineRoutes,
  ...v1MachineActionRoutes,
  ...v1AccessorRoutes,
  ...v1EventRoutes,
  ...v1ScriptRoutes,
  ...v1SessionRoutes,
  ...v1DirectoryRoutes,
  ...v1NetworkRoutes,
  ...v1DriveRoutes,
];
