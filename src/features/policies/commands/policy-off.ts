// /ps policy off: every rule of the team and every exemption gone at once.

import { z } from 'zod';
import { withoutArguments } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { POLICY_ADMINS } from './policy-max-run.js';

export const policyOffOperation = defineOperation({
  name: 'policy off',
  usage: `${ps} policy off`,
  summary: 'Administrators: turn off every policy of your team (run limit and off-hours).',
  help: {
    parameters: [],
    examples: [`${ps} policy off`],
    effect: `No machine is warned or stopped by a policy any more; exemptions are forgotten. ${POLICY_ADMINS}`,
  },
  kind: 'change',
  params: z.object({}),
  read: (args) => withoutArguments('policy off', args),
  run: (_params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.off',
      note: 'every rule',
      async change(team) {
        const cleared = await deps.store.policies.clear(team);
        return cleared === 0
          ? 'Your team had no policies: nothing changed.'
          : '✅ Your team has no policies now.';
      },
    }),
});
