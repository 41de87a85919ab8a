// App Home: the tab that shows whether a person's key is linked and their machines as cards. Its own
// feature, above machines (whose cards and button rules it draws) and below account (whose login and
// logout publish it again). machines and watches, below it, refresh it through the function
// features/index.ts passes them (publishHome), since importing it would close a circle.
import type { Feature } from '../feature.js';
import { registerAppHomeOpened } from './app-home-opened.js';
import { homeNeeds } from './home-deps.js';

export const homeFeature = {
  needs: homeNeeds,
  listen(router, deps) {
    registerAppHomeOpened(router, deps);
  },
} as const satisfies Feature<typeof homeNeeds>;
