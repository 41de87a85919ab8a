import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerAccountViews } from './account-views.js';
import { registerMachineViews } from './machine-views.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerMachineViews(router, deps);
  registerAccountViews(router, deps);
}
