import type { App } from '@slack/bolt';
import type { ListenerDeps } from '../deps.js';

export function register(_app: App, _deps: ListenerDeps): void {}
