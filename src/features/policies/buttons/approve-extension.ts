// Approve 4 h more on a member's Keep running: an administrator of the team extends the stop, once
// (two administrators, or two replicas, clicking together: one extends, the other is told), and the
// member is told in their DM.

import { section } from '../../../slack/block-kit/elements.js';
import { mention, message, nameMrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import { postIn } from '../../../slack/posting.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { extendStop } from '../policy-extension.js';
import { markPolicyMessage, policyButtonHandler } from './policy-click.js';

export function approveExtensionHandler(deps: PoliciesDeps) {
  return policyButtonHandler(deps, async (click, slack) => {
    const { ref, user } = click;
    const name = nameMrkdwn(ref.name);
    if (!click.administrator) {
      await click.replyPrivately({
        blocks: [],
        text: "Only your team's administrators can approve keeping a machine past a policy's stop.",
      });
      return;
    }
    const step = { machineId: ref.id, kind: ref.kind, dueAt: ref.stopAt, step: 'extend' } as const;
    if (!(await deps.store.policies.claim(click.team.teamId, step, deps.now()))) {
      await markPolicyMessage(slack, click, `${name}: this request was already approved.`);
      return;
    }
    const until = await extendStop(deps, click.team, ref, user.userId, ref.requester);
    const when = slackDate(until, '{date_short_pretty} {time}');
    await markPolicyMessage(
      slack,
      click,
      `🟢 Approved by ${mention(user.userId)}: ${name} runs until ${when}.`,
    );
    if (ref.requester !== undefined) {
      const line = `🟢 ${mention(user.userId)} approved: ${name} keeps running until ${when}.`;
      await postIn(
        slack,
        { channel: ref.requester },
        message([section(line)], `${ref.name} keeps running`),
        deps.pacer,
      );
    }
  });
}
