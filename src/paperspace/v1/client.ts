// The v1 dialect's resources, built over the shared HTTP core: the same resource interfaces the
// contract's modules implement, so features hold one PaperspaceClient whichever API answers.
import { PaperspaceError } from '../errors.js';
import type { HttpCore } from '../http.js';
import type { AccountResource, DelegationsResource } from '../resources.js';
import type { Sleep } from '../sleep.js';
import { createV1NetworksResource, createV1TemplatesResource, createV1UsersResource } from './catalog.js';
import type { V1Context } from './context.js';
import { createV1MachinesResource } from './machines.js';
import { createV1ScriptsResource } from './scripts.js';
import { createSessionReader, identityOf } from './session.js';
import { createV1SharedDrivesResource } from './shared-drives.js';

export function createV1Resources(core: HttpCore, base: string, sleep: Sleep, now: () => number) {
  const url = (path: string) => `${base}${path}`;
  const session = createSessionReader(core, url);
  const context: V1Context = { core, url, sleep, now, session };
  const account: AccountResource = {
    whoAmI: async (options) => identityOf(await session(options)),
  };
  const delegations: DelegationsResource = {
    async create() {
      throw new PaperspaceError(
        "Paperspace's v1 API has no resource delegations, so machines cannot be shared with a time-limited token. " +
          'Give a team member access to a machine with /ps access instead.',
        'delegations.create',
      );
    },
  };
  return {
    account,
    machines: createV1MachinesResource(context),
    scripts: createV1ScriptsResource(context),
    templates: createV1TemplatesResource(context),
    users: createV1UsersResource(context),
    networks: createV1NetworksResource(context),
    delegations,
    sharedDrives: createV1SharedDrivesResource(context),
  };
}
