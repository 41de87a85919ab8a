// The Log in button (on the login prompt and in App Home): opens the same form as `/ps login`.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../../ids.js';
import type { ListenerDeps } from '../../deps.js';
import type { ListenerRouter } from '../../router.js';
import { openLoginModal } from '../../views/account/open-login-modal.js';
import { clickerOf } from './clicker.js';

export function registerLoginButton(router: ListenerRouter, deps: ListenerDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.login, async ({ ack, body, client }) => {
    await ack();
    await openLoginModal(client, body.trigger_id, deps.vault, clickerOf(body));
  });
}
