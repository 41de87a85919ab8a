// /ps policy idle <hours|off>: Paperspace's own automatic shutdown for the team's machines, which stops
// a machine nobody is logged into even while the bot is down. Stored here; applied to the team's
// machines with each owner's key (idle-shutdown.ts) and to every machine created through the bot.

import { z } from 'zod';
import { accept } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { readDurationOrOff } from './duration-or-off.js';
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
    const idle = readDurationOrOff('policy idle', args, {
      noun: 'time',
      example: '2h',
      maxMs: MAX_IDLE_HOURS * HOUR_MS,
      check: (ms) => (ms % HOUR_MS === 0 ? null : 'Paperspace counts it in whole hours (1h to 168h)'),
    });
    return idle.ok ? accept({ hours: idle.value === null ? null : idle.value / HOUR_MS }) : idle;
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
