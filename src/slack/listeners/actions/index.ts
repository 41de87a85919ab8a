import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerAccountActions } from './account-actions.js';
import { registerMachineActions } from './machine-actions.js';
import { registerSchedulerActions } from './scheduler-actions.js';

export function register(app: App, deps: ListenerDeps): void {
  registerMachineActions(app, deps);
  registerAccountActions(app, deps);
  registerSchedulerActions(app, deps);
}
