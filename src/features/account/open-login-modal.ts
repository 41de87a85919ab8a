// Opens the login form, from `/ps login` or from a Log in button (a prompt, App Home). It says which
// account is linked already, so linking another key reads as the replacement it is.
import type { WebClient } from '@slack/web-api';
import type { Capabilities } from '../../paperspace/dialect.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { KeyVault } from '../../vault/key-vault.js';
import { loginModal } from './blocks/login-modal.js';

export async function openLoginModal(
  client: WebClient,
  triggerId: string,
  vault: KeyVault,
  user: SlackUser,
  capabilities: Capabilities,
): Promise<void> {
  const linked = await vault.account(user);
  await client.views.open({
    trigger_id: triggerId,
    view: loginModal(linked ? { linkedAs: linked.email, capabilities } : { capabilities }),
  });
}
