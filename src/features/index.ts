// Every Slack surface the bot listens on. Each folder's register() adds its listeners to the router;
// the manifest test checks the ids registered here against manifest.yml and src/slack/ids.ts.
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../slack/listener-deps.js';
import { createListenerRouter, type ListenerRouter } from '../slack/router.js';
import * as events from './account/events.js';
import * as actions from './legacy-actions.js';
import * as commands from './legacy-commands.js';
import * as views from './legacy-views.js';

export function registerListeners(router: ListenerRouter, deps: ListenerDeps): void {
  commands.register(router, deps);
  actions.register(router, deps);
  views.register(router, deps);
  events.register(router, deps);
}

/** Gives `app` the bot's listeners, behind one dispatching listener per surface (router.ts). */
export function attachListeners(app: App, deps: ListenerDeps): void {
  registerListeners(createListenerRouter(app, deps.logger), deps);
}
