// The contract's (legacy API's) client: its resource modules over the shared HTTP core.
// Each resource is built the first time it is read. A client is built for every request and every
// watch poll of every person (keys are kept, clients are not: features/watches/person-keys.ts), and a
// poll reads only `machines`: building all eight resources, each a set of closures, for each of
// 10,000 polls an interval was most of a client's cost and of its garbage.
import { CAPABILITIES } from '../dialect.js';
import type {
  DelegationsResource,
  MachinesResource,
  NetworksResource,
  PaperspaceClient,
  ScriptsResource,
  SharedDrivesResource,
  TemplatesResource,
  UsersResource,
} from '../resources.js';
import { contractAccountResource } from './account.js';
import type { ResourceContext } from './context.js';
import { createDelegationsResource } from './delegations.js';
import { createMachinesResource } from './machines.js';
import { createNetworksResource } from './networks.js';
import { createScriptsResource } from './scripts.js';
import { createSharedDrivesResource } from './shared-drives.js';
import { createTemplatesResource } from './templates.js';
import { createUsersResource } from './users.js';

class ContractClient implements PaperspaceClient {
  readonly dialect = 'contract';
  readonly capabilities = CAPABILITIES.contract;
  readonly account = contractAccountResource;
  readonly #context: ResourceContext;
  #machines: MachinesResource | undefined;
  #scripts: ScriptsResource | undefined;
  #templates: TemplatesResource | undefined;
  #users: UsersResource | undefined;
  #networks: NetworksResource | undefined;
  #delegations: DelegationsResource | undefined;
  #sharedDrives: SharedDrivesResource | undefined;

  constructor(context: ResourceContext) {
    this.#context = context;
  }

  get machines(): MachinesResource {
    this.#machines ??= createMachinesResource(this.#context);
    return this.#machines;
  }
  get scripts(): ScriptsResource {
    this.#scripts ??= createScriptsResource(this.#context);
    return this.#scripts;
  }
  get templates(): TemplatesResource {
    this.#templates ??= createTemplatesResource(this.#context);
    return this.#templates;
  }
  get users(): UsersResource {
    this.#users ??= createUsersResource(this.#context);
    return this.#users;
  }
  get networks(): NetworksResource {
    this.#networks ??= createNetworksResource(this.#context);
    return this.#networks;
  }
  get delegations(): DelegationsResource {
    this.#delegations ??= createDelegationsResource(this.#context);
    return this.#delegations;
  }
  get sharedDrives(): SharedDrivesResource {
    this.#sharedDrives ??= createSharedDrivesResource(this.#context);
    return this.#sharedDrives;
  }
}

export function createContractClient(context: ResourceContext): PaperspaceClient {
  return new ContractClient(context);
}
