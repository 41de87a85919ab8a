// Unfurls: Paperspace console links to machines, posted in a conversation, shown as machine cards.
import type { Feature } from '../feature.js';
import { linkSharedHandler } from './link-shared.js';
import { unfurlsNeeds } from './unfurls-deps.js';

export const unfurlsFeature = {
  needs: unfurlsNeeds,
  listen(router, deps) {
    router.event('link_shared', linkSharedHandler(deps));
  },
} as const satisfies Feature<typeof unfurlsNeeds>;
