// The v1 dialect's client, built over the shared HTTP core: the same resource interfaces the
// contract's modules implement, so features hold one PaperspaceClient whichever API answers. Each
// resource is built the first time it is read (built-on-use.ts).
import { clientsBuiltOnUse } from '../built-on-use.js';
import { CAPABILITIES } from '../dialect.js';
import { PaperspaceError } from '../errors.js';
import type { HttpCore } from '../http.js';
import type { DelegationsResource, PaperspaceClient } from '../resources.js';
import type { Sleep } from '../sleep.js';
import { createV1NetworksResource, createV1TemplatesResource, createV1UsersResource } from './catalog.js';
import type { V1Context } from './context.js';
import { createV1MachinesResource } from './machines.js';
import { createV1ScriptsResource } from './scripts.js';
import { createSessionReader, identityOf } from './session.js';
import { createV1SharedDrivesResource } from './shared-drives.js';

const delegations: DelegationsResource = {
  async create() {
    throw new PaperspaceError(
      "Paperspace's v1 API has no resource delegations, so machines cannot be shared with a time-limited token. " +
        'Give a team member access to a machine with /ps access instead.',
      'delegations.create',
    );
  },
};

const v1Client = clientsBuiltOnUse<V1Context>({
  dialect: () => 'v1',
  capabilities: () => CAPABILITIES.v1,
  account: ({ session }) => ({ whoAmI: async (options) => identityOf(await session(options)) }),
  machines: createV1MachinesResource,
  scripts: createV1ScriptsResource,
  templates: createV1TemplatesResource,
  users: createV1UsersResource,
  networks: createV1NetworksResource,
  delegations: () => delegations,
  sharedDrives: createV1SharedDrivesResource,
});

export function createV1Client(
  core: HttpCore,
  base: string,
  sleep: Sleep,
  now: () => number,
): PaperspaceClient {
  const url = (path: string) => `${base}${path}`;
  return v1Client({ core, url, sleep, now, session: createSessionReader(core, url) });
}
