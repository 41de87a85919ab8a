// What every post of a stored share starts from, whatever became of it: which share, whose, its
// machines, and the end of the four hours it was given for (a share ended early still shows them).
import { DELEGATION_LIFETIME_MS } from '../../paperspace/constants.js';
import type { Delegation } from '../../store/delegations.js';
import type { SharedMachine } from './share-types.js';

export function sharePostBasis(share: Delegation, machines: SharedMachine[]) {
  return {
    shareId: share.id,
    sharerUserId: share.userId,
    machines,
    expiresAt: share.createdAt + DELEGATION_LIFETIME_MS,
  };
}
