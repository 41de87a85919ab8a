// Machine card buttons: Start, Stop, Restart, Usage and the overflow (Settings, Access, Destroy).
// Share on the card belongs to the scheduler's listeners (actions/scheduler-actions.ts).
import type { ListenerDeps } from '../../../slack/listener-deps.js';
import type { ListenerRouter } from '../../../slack/router.js';
import { registerMachineOverflow } from './overflow.js';
import { registerPowerButtons } from './power-buttons.js';
import { registerUsageButton } from './usage-button.js';

export function registerMachineActions(router: ListenerRouter, deps: ListenerDeps): void {
  registerPowerButtons(router, deps);
  registerUsageButton(router, deps);
  registerMachineOverflow(router, deps);
}
