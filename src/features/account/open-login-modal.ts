// Opens the login form, from `/ps login` or from a Log in button (a prompt, App Home). It says which
// account is linked already, so linking another key reads as the replacement it is. A trigger expires
// 3 seconds after the click, so the form opens first, with nothing read before it; the note on the
// linked account is added by views.update once the database has answered (the inputs keep their
// block and action ids, so anything typed meanwhile stays).
import type { Logger } from 'pino';
import { describeError, slackErrorCode } from '../../errors/describe-error.js';
import type { Capabilities } from '../../paperspace/dialect.js';
import { type ModalTrigger, openModal } from '../../slack/open-modal.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { KeyVault } from '../../vault/key-vault.js';
import { loginModal } from './blocks/login-modal.js';

interface LoginTrigger extends ModalTrigger {
  deps: { logger: Logger; clients: { capabilities: Capabilities } };
  user: SlackUser;
}

export async function openLoginModal(trigger: LoginTrigger, vault: Pick<KeyVault, 'account'>): Promise<void> {
  const { web: client, deps, user } = trigger;
  const capabilities = deps.clients.capabilities;
  // A refused trigger (late, used, rate limited) has been explained to the person by openModal.
  const opened = await openModal(trigger, loginModal({ capabilities }));
  if (opened === undefined) return;
  const linked = await vault.account(user);
  if (!linked) return;
  try {
    await client.views.update({
      view_id: opened.id,
      ...(opened.hash ? { hash: opened.hash } : {}),
      view: loginModal({ linkedAs: linked.email, capabilities }),
    });
  } catch (error) {
    // Closed or already submitted: the note on the linked account is only a courtesy.
    const code = slackErrorCode(error);
    if (code === 'not_found' || code === 'hash_conflict') return;
    deps.logger.warn({ error: describeError(error) }, 'could not add the linked account to the login form');
  }
}
