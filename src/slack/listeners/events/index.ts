import type { ListenerDeps } from '../deps.js';
import type { ListenerRouter } from '../router.js';
import { registerAppHomeOpened } from './app-home-opened.js';

export function register(router: ListenerRouter, deps: ListenerDeps): void {
  registerAppHomeOpened(router, deps);
}
