import type { ListenerDeps } from '../slack/listener-deps.js';
import type { ListenerRouter } from '../slack/router.js';
import { registerAccountActions } from './catalog/buttons/index.js';
import { registerMachineActions } from './machines/buttons/index.js';
import { registerSchedulerActions } from './reminders/buttons/index.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerMachineActions(router, deps);
  registerAccountActions(router, deps);
  registerSchedulerActions(router, deps);
}
