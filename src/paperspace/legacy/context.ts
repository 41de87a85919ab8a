import type { GraphqlCaller } from '../graphql.js';
import type { HttpCore } from '../http.js';
import type { Sleep } from '../sleep.js';

/** What every resource module is built from: the shared core and the client's injected clock. */
export interface ResourceContext {
  core: HttpCore;
  graphql: GraphqlCaller;
  /** An absolute URL for a REST path of the contract, e.g. `/machines/getMachines`. */
  restUrl: (path: string) => string;
  sleep: Sleep;
  now: () => number;
}
