// The Log in button (on the login prompt and in App Home): opens the same form as `/ps login`.
import type { BlockAction, ButtonAction } from '@slack/bolt';
import { ActionId } from '../../../slack/ids.js';
import { actionInteraction } from '../../../slack/interaction.js';
import type { ListenerRouter } from '../../../slack/router.js';
import type { AccountDeps } from '../account-deps.js';
import { openLoginModal } from '../open-login-modal.js';

export function registerLoginButton(router: ListenerRouter, deps: AccountDeps): void {
  router.action<BlockAction<ButtonAction>>(ActionId.login, async (args) => {
    await args.ack();
    await openLoginModal({ ...actionInteraction(deps, args), triggerId: args.body.trigger_id }, deps.vault);
  });
}
