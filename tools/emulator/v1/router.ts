// v1's route table type. Handlers get the authenticated user (v1 has no delegated tokens), the
// options that shape lists, and answer a Reply or throw an EmulatorError.

import type { UserRecord } from '../records.js';
import type { Reply } from '../router.js';
import type { EmulatorCore } from '../world.js';
import type { PageOptions } from './paging.js';

export interface V1Context {
  readonly core: EmulatorCore;
  readonly user: UserRecord;
  readonly params: Readonly<Record<string, string>>;
  readonly query: URLSearchParams;
  readonly body: unknown;
  readonly paging: PageOptions;
}

export interface V1Route {
  readonly method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  /** Relative to the `/v1` base. */
  readonly path: string;
  readonly handle: (context: V1Context) => Reply;
}
