import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerAccountActions } from './account-actions.js';
import { registerMachineActions } from './machine-actions.js';
import { registerSchedulerActions } from './scheduler-actions.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerMachineActions(router, deps);
  registerAccountActions(router, deps);
  registerSchedulerActions(router, deps);
}
