// The install flow's `state`: signed and dated by @slack/oauth's own store, and accepted once. Its
// store takes a state again for its whole ten minutes, so a finished install's redirect (its URL in
// the browser's history, a proxy's log) could be replayed to exchange another approval under it.
// Each state used is claimed in the store of seen request signatures (a hash, never the state), so
// the claim holds on every replica; without a store, this process's memory holds it.
import { createHash } from 'node:crypto';
import oauth, { type StateStore } from '@slack/oauth';

// @slack/oauth is CommonJS, and Node finds no named export for what it re-exports from its folders.
const { ClearStateStore, InvalidStateError } = oauth;

import type { SeenSignatures } from './request-guard.js';

/** How long a state is good for: @slack/oauth's own default, the lifetime of its cookie too. */
const OAUTH_STATE_LIFETIME_S = 600;

export function oneTimeStateStore(stateSecret: string, seen: SeenSignatures | undefined): StateStore {
  const signed = new ClearStateStore(stateSecret, OAUTH_STATE_LIFETIME_S);
  const used = new Map<string, number>();
  const claim = async (hash: string, expiresAt: number, at: number): Promise<boolean> => {
    if (seen !== undefined) return seen.claim(hash, expiresAt);
    for (const [known, until] of used) if (until <= at) used.delete(known);
    if (used.has(hash)) return false;
    used.set(hash, expiresAt);
    return true;
  };
  return {
    generateStateParam: (installOptions, now) => signed.generateStateParam(installOptions, now),
    async verifyStateParam(now, state) {
      const installOptions = await signed.verifyStateParam(now, state);
      const hash = createHash('sha256').update(`oauth-state:${state}`).digest('hex');
      const at = now.getTime();
      if (!(await claim(hash, at + OAUTH_STATE_LIFETIME_S * 1000, at))) {
        throw new InvalidStateError('The state value was already used');
      }
      return installOptions;
    },
  };
}
