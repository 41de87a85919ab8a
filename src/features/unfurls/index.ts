// Unfurls: Paperspace console links to machines, posted in a conversation, shown as machine cards.
import type { Feature } from '../feature.js';
import { linkSharedHandler } from './link-shared.js';

export const unfurlsFeature: Feature = {
  listen(router, deps) {
    router.event('link_shared', linkSharedHandler(deps));
  },
};
