import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerAccountViews } from './account-views.js';
import { registerMachineViews } from './machine-views.js';

export function register(app: App, deps: ListenerDeps): void {
  registerMachineViews(app, deps);
  registerAccountViews(app, deps);
}
