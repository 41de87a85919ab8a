import type { ListenerDeps } from '../../slack/listener-deps.js';
import type { ListenerRouter } from '../../slack/router.js';
import { registerAppHomeOpened } from './app-home-opened.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerAppHomeOpened(router, deps);
}
