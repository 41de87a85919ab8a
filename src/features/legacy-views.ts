import type { ListenerDeps } from '../slack/listener-deps.js';
import type { ListenerRouter } from '../slack/router.js';
import { registerAccountViews } from './catalog/modals/index.js';
import { registerMachineViews } from './machines/modals/index.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerMachineViews(router, deps);
  registerAccountViews(router, deps);
}
