// /ps policy: the rules of the person's Paperspace team (run limit, off-hours) and the
// machines exempted from them. Anyone on the team may read them.

import { z } from 'zod';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { closestMatch } from '../../../slack/command-language/closest-match.js';
import { accept, fail } from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { policyListText } from '../blocks/policy-list.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { NOT_A_TEAM, policyTeamOf } from '../policy-administrators.js';

const RULES = ['max-run', 'off-hours', 'idle', 'exempt', 'off'];

export const policyOperation = defineOperation({
  name: 'policy',
  usage: `${ps} policy`,
  summary: "Show your team's policies: the run limit, off-hours, idle timeout and exempted machines.",
  help: {
    parameters: [],
    examples: [`${ps} policy`],
    effect: 'Only shows; changes nothing.',
  },
  kind: 'read',
  params: z.object({}),
  read(args) {
    const [first] = args;
    if (first === undefined) return accept({});
    const suggestion = closestMatch(first.text.toLowerCase(), RULES);
    return fail(
      `Unknown policy ${echo(first.text)}: use ${RULES.join(', ')}.${suggestion === null ? '' : ` Did you mean "${suggestion}"?`}`,
    );
  },
  async run(_params, context, deps: PoliciesDeps) {
    const client = await context.userClient();
    if (!client) return;
    const team = await policyTeamOf(deps, context);
    if (team === undefined) return context.replyPrivately(plainMessage(NOT_A_TEAM));
    const [rules, exemptions] = await Promise.all([
      deps.store.policies.rules(team),
      deps.store.policies.exemptions(team, deps.now()),
    ]);
    await context.replyPrivately(plainMessage(policyListText(rules, exemptions)));
  },
});
