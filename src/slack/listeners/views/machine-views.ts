import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

// SCAFFOLD: replaced by the real listeners before this lands.
export function registerMachineViews(_app: App, _deps: ListenerDeps): void {}
