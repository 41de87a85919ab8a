import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';
import { registerAppHomeOpened } from './app-home-opened.js';

export function register(app: App, deps: ListenerDeps): void {
  registerAppHomeOpened(app, deps);
}
