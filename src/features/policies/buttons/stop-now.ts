// Stop now on a warning (the owner, with their own key), and Stop with my key on an administrator's
// message when the owner's key could not stop the machine (the administrator's own key: an override,
// audited with the rule).
import { mention, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { markPolicyMessage, policyButtonHandler } from './policy-click.js';

export function stopNowHandler(deps: PoliciesDeps, as: 'owner' | 'administrator') {
  return policyButtonHandler(deps, async (click, slack) => {
    const { ref, user } = click;
    await deps.audit.run(
      {
        user,
        action: as === 'owner' ? 'policy.stop_now' : 'policy.override',
        resourceId: ref.id,
        note: `${ref.kind}, stop due ${new Date(ref.stopAt).toISOString()}`,
      },
      () => click.client.machines.stop(ref.id),
    );
    await markPolicyMessage(
      slack,
      click,
      `⏹ ${nameMrkdwn(ref.name)}: stopped by ${mention(user.userId)} with their own key.`,
    );
  });
}
