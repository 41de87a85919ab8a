// /ps policy idle <hours|off>: Paperspace's own automatic shutdown for the team's machines, which stops
// a machine nobody is logged into even while the bot is down. Stored here; applied to the team's
// machines with each owner's key (idle-shutdown.ts) and to every machine created through the bot.

import { z } from 'zod';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseDuration } from '../../../slack/command-language/duration.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { POLICY_ADMINS } from './policy-max-run.js';

const HOUR_MS = 3_600_000;
/** Paperspace counts the timeout in whole hours; a week is its longest choice. */
const MAX_IDLE_HOURS = 168;

export const policyIdleOperation = defineOperation({
  name: 'policy idle',
  usage: `${ps} policy idle <2h|off>`,
  summary: "Administrators: have Paperspace itself shut down your team's machines nobody is logged into.",
  help: {
    parameters: [
      '`2h`: whole hours with nobody logged in before Paperspace shuts a machine down; `off`: none.',
    ],
    examples: [`${ps} policy idle 2h`, `${ps} policy idle off`],
    effect: `Sets Paperspace's automatic shutdown on the machines created through the bot. ${POLICY_ADMINS}`,
  },
  kind: 'change',
  params: z.object({
    hours: z
      .number()
      .int()
      .min(1)
      .max(MAX_IDLE_HOURS)
      .nullable()
      .describe(
        'Whole hours with nobody logged in before Paperspace shuts a machine down, or null for none.',
      ),
  }),
  read(args) {
    const split = splitWithoutKeyValues('policy idle', args);
    if (!split.ok) return split;
    const [typed] = split.args.positionals;
    if (typed === undefined) return fail('Missing the time: say how many hours, for example 2h, or off.');
    const extra = tooMany('policy idle', split.args.positionals, 1, 'one time');
    if (extra !== null) return extra;
    if (typed.text.toLowerCase() === 'off') return accept({ hours: null });
    const duration = parseDuration(typed.text, MAX_IDLE_HOURS * HOUR_MS);
    if (!duration.ok) return fail(`Invalid time ${echo(typed.text)}: ${duration.error}.`);
    if (duration.ms % HOUR_MS !== 0) {
      return fail(`Invalid time ${echo(typed.text)}: Paperspace counts it in whole hours (1h to 168h).`);
    }
    return accept({ hours: duration.ms / HOUR_MS });
  },
  run: (params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.idle',
      note: params.hours === null ? 'off' : `${params.hours} h`,
      async change(team) {
        if (params.hours === null) {
          await deps.store.policies.clear(team, 'idle');
          return "✅ Machines created through the bot no longer get Paperspace's automatic shutdown.";
        }
        await deps.store.policies.setRule(
          team,
          'idle',
          { hours: params.hours },
          {
            setBy: context.user.userId,
            at: deps.now(),
          },
        );
        return `✅ Machines created through the bot get Paperspace's automatic shutdown after ${params.hours} h with nobody logged in.`;
      },
    }),
});
