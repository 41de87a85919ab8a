// The contract's (legacy API's) client: its resource modules over the shared HTTP core, each built the
// first time it is read (built-on-use.ts).
import { clientsBuiltOnUse } from '../built-on-use.js';
import { CAPABILITIES } from '../dialect.js';
import { contractAccountResource } from './account.js';
import type { ResourceContext } from './context.js';
import { createDelegationsResource } from './delegations.js';
import { createMachinesResource } from './machines.js';
import { createNetworksResource } from './networks.js';
import { createScriptsResource } from './scripts.js';
import { createSharedDrivesResource } from './shared-drives.js';
import { createTemplatesResource } from './templates.js';
import { createUsersResource } from './users.js';

export const createContractClient = clientsBuiltOnUse<ResourceContext>({
  dialect: () => 'contract',
  capabilities: () => CAPABILITIES.contract,
  account: () => contractAccountResource,
  machines: createMachinesResource,
  scripts: createScriptsResource,
  templates: createTemplatesResource,
  users: createUsersResource,
  networks: createNetworksResource,
  delegations: createDelegationsResource,
  sharedDrives: createSharedDrivesResource,
});
