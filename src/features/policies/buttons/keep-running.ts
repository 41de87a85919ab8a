// Keep running 4 h more (a warning's, or Extend on a card): an administrator of the team extends the
// machine's stop at once; anyone else asks the administrator who set the rule, and until they approve
// the stop stays where it was. Audited with the rule and the administrator.
import { mention, nameMrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import { postIn } from '../../../slack/posting.js';
import { extensionRequestMessage } from '../blocks/policy-warning.js';
import { EXTENSION_MS } from '../lease.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { extendStop } from '../policy-extension.js';
import { markPolicyMessage, policyButtonHandler } from './policy-click.js';

export function keepRunningHandler(deps: PoliciesDeps) {
  return policyButtonHandler(deps, async (click, slack) => {
    const { ref, user } = click;
    const name = nameMrkdwn(ref.name);
    if (click.administrator) {
      const until = await extendStop(deps, click.team, ref, user.userId);
      await markPolicyMessage(
        slack,
        click,
        `🟢 ${name}: kept running by ${mention(user.userId)} until ${slackDate(until, '{date_short_pretty} {time}')}.`,
      );
      return;
    }
    const rules = await deps.store.policies.rules(click.team);
    const rule = rules[ref.kind];
    if (rule === undefined) {
      await markPolicyMessage(
        slack,
        click,
        `${name}: the rule that would stop it is off now; nothing to keep.`,
      );
      return;
    }
    await deps.audit.run(
      {
        user,
        action: 'policy.extension_request',
        resourceId: ref.id,
        note: `${ref.kind} set by ${rule.setBy}`,
      },
      () => postIn(slack, { channel: rule.setBy }, extensionRequestMessage(ref, user.userId), deps.pacer),
    );
    await markPolicyMessage(
      slack,
      click,
      `🙋 ${mention(user.userId)} asked ${mention(rule.setBy)} to keep ${name} running ${EXTENSION_MS / 3_600_000} h more. Until they approve, it stops ${slackDate(ref.stopAt, '{date_short_pretty} {time}')}.`,
    );
  });
}
