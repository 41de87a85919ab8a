// What every v1 resource module is built from: the shared HTTP core, v1 URLs, the client's clock,
// and the caller's session (who the key belongs to and which team), read once per client.
import type { HttpCore, RequestOptions } from '../http.js';
import type { Sleep } from '../sleep.js';
import type { V1Session } from './wire.js';

export interface V1Context {
  core: HttpCore;
  /** An absolute URL for a v1 path, e.g. `/machines`. */
  url: (path: string) => string;
  sleep: Sleep;
  now: () => number;
  /** `GET /auth/session`, asked once per client: team-scoped paths need the key's team id. */
  session: (options?: RequestOptions) => Promise<V1Session>;
}
