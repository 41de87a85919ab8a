// Who an API key belongs to. v1 says so (`GET /auth/session`); the contract has no such call, so its
// dialect answers undefined and the login flow identifies the person another way.
import type { RequestOptions } from '../http.js';

export interface Identity {
  userId: string;
  email: string;
  teamId: string;
  /** Administers (or owns) the key's team. */
  isAdmin: boolean;
}

export interface AccountResource {
  /** Who the key belongs to; undefined when the dialect cannot tell (the contract). */
  whoAmI(options?: RequestOptions): Promise<Identity | undefined>;
}

export const contractAccountResource: AccountResource = {
  whoAmI: async () => undefined,
};
