// The contract has no call that says who a key belongs to, so its dialect answers undefined and the
// login flow identifies the person another way (`capabilities.whoAmI`).
import type { AccountResource } from '../resources.js';

export const contractAccountResource: AccountResource = {
  whoAmI: async () => undefined,
};
