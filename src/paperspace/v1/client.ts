// The v1 dialect's client, built over the shared HTTP core: the same resource interfaces the
// contract's modules implement, so features hold one PaperspaceClient whichever API answers.
// Each resource is built the first time it is read (see legacy/client.ts for why).
import { CAPABILITIES } from '../dialect.js';
import { PaperspaceError } from '../errors.js';
import type { HttpCore } from '../http.js';
import type {
  AccountResource,
  DelegationsResource,
  MachinesResource,
  NetworksResource,
  PaperspaceClient,
  ScriptsResource,
  SharedDrivesResource,
  TemplatesResource,
  UsersResource,
} from '../resources.js';
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

class V1Client implements PaperspaceClient {
  readonly dialect = 'v1';
  readonly capabilities = CAPABILITIES.v1;
  readonly delegations = delegations;
  readonly #context: V1Context;
  #account: AccountResource | undefined;
  #machines: MachinesResource | undefined;
  #scripts: ScriptsResource | undefined;
  #templates: TemplatesResource | undefined;
  #users: UsersResource | undefined;
  #networks: NetworksResource | undefined;
  #sharedDrives: SharedDrivesResource | undefined;

  constructor(context: V1Context) {
    this.#context = context;
  }

  get account(): AccountResource {
    const { session } = this.#context;
    this.#account ??= { whoAmI: async (options) => identityOf(await session(options)) };
    return this.#account;
  }
  get machines(): MachinesResource {
    this.#machines ??= createV1MachinesResource(this.#context);
    return this.#machines;
  }
  get scripts(): ScriptsResource {
    this.#scripts ??= createV1ScriptsResource(this.#context);
    return this.#scripts;
  }
  get templates(): TemplatesResource {
    this.#templates ??= createV1TemplatesResource(this.#context);
    return this.#templates;
  }
  get users(): UsersResource {
    this.#users ??= createV1UsersResource(this.#context);
    return this.#users;
  }
  get networks(): NetworksResource {
    this.#networks ??= createV1NetworksResource(this.#context);
    return this.#networks;
  }
  get sharedDrives(): SharedDrivesResource {
    this.#sharedDrives ??= createV1SharedDrivesResource(this.#context);
    return this.#sharedDrives;
  }
}

export function createV1Client(
  core: HttpCore,
  base: string,
  sleep: Sleep,
  now: () => number,
): PaperspaceClient {
  const url = (path: string) => `${base}${path}`;
  return new V1Client({ core, url, sleep, now, session: createSessionReader(core, url) });
}
