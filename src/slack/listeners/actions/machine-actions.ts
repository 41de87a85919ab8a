// Machine card buttons: Start, Stop, Restart, Usage and the overflow (Settings, Access, Destroy).
// Share on the card belongs to the scheduler's listeners (actions/scheduler-actions.ts).
import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerMachineOverflow } from './machines/overflow.js';
import { registerPowerButtons } from './machines/power-buttons.js';
import { registerUsageButton } from './machines/usage-button.js';

export function registerMachineActions(app: App, deps: ListenerDeps): void {
  registerPowerButtons(app, deps);
  registerUsageButton(app, deps);
  registerMachineOverflow(app, deps);
}
