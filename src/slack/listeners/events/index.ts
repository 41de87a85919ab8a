import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

// SCAFFOLD: App Home (app_home_opened) is registered here.
export function register(_app: App, _deps: ListenerDeps): void {}
