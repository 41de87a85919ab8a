// Every Slack surface the bot listens on. Each folder's register() adds its listeners; the manifest
// test checks the ids registered here against manifest.yml and src/slack/ids.ts.
import type { App } from '@slack/bolt';
import * as actions from './actions/index.js';
import * as commands from './commands/index.js';
import type { ListenerDeps } from './deps.js';
import * as events from './events/index.js';
import * as views from './views/index.js';

export function registerListeners(app: App, deps: ListenerDeps): void {
  commands.register(app, deps);
  actions.register(app, deps);
  views.register(app, deps);
  events.register(app, deps);
}
