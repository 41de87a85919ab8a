// /ps policy idle <hours|off>: Paperspace's own shutdown of a team machine nobody is logged into, set
// on each of the team's machines with its owner's key (and on every machine created through the bot),
// so it holds even while the bot is down.

import { z } from 'zod';
import { accept } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { applyIdleTimeout, idleOutcomeText } from '../idle-timeout.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { readDurationOrOff } from './duration-or-off.js';
import { POLICY_ADMINS } from './policy-max-run.js';

const HOUR_MS = 3_600_000;
const MAX_IDLE_HOURS = 168;

export const policyIdleOperation = defineOperation({
  name: 'policy idle',
  usage: `${ps} policy idle <2h|off>`,
  summary:
    "Administrators: have Paperspace shut down your team's machines after some hours with nobody logged in.",
  help: {
    parameters: [
      '`2h`: whole hours with nobody logged in before Paperspace shuts the machine down (1 to 168); `off`: no rule.',
    ],
    examples: [`${ps} policy idle 2h`, `${ps} policy idle off`],
    effect:
      "Sets Paperspace's own shutdown timeout on the team's machines with each owner's key, and on every machine created through the bot; " +
      `the reply names the machines it could not set, with why. ${POLICY_ADMINS}`,
  },
  kind: 'change',
  params: z.object({
    hours: z
      .number()
      .int()
      .min(1)
      .max(MAX_IDLE_HOURS)
      .nullable()
      .describe('Whole hours with nobody logged in before the shutdown, or null for no rule.'),
  }),
  read(args) {
    const idle = readDurationOrOff('policy idle', args, {
      noun: 'idle timeout',
      example: '2h',
      maxMs: MAX_IDLE_HOURS * HOUR_MS,
      check: (ms) => (ms < HOUR_MS || ms % HOUR_MS !== 0 ? 'Paperspace takes whole hours, from 1h' : null),
    });
    return idle.ok ? accept({ hours: idle.value === null ? null : idle.value / HOUR_MS }) : idle;
  },
  run: (params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.idle_rule',
      note: params.hours === null ? 'off' : `${params.hours} h`,
      async change(team, client) {
        if (params.hours === null) {
          await deps.store.policies.clear(team, 'idle');
          return (
            '✅ Your team has no idle rule now. Machines keep the shutdown timeout they have: ' +
            `change one with \`${ps} update <machine> shutdownTimeoutInHours=0\`.`
          );
        }
        const setBy = context.user.userId;
        await deps.store.policies.setRule(team, 'idle', { hours: params.hours }, { setBy, at: deps.now() });
        const outcome = await applyIdleTimeout(deps, team, client, { hours: params.hours, setBy });
        return (
          `✅ Paperspace now shuts down your team's machines after ${params.hours} h with nobody logged in, ` +
          'even while this bot is down; machines created through the bot get it too.\n' +
          idleOutcomeText(outcome)
        );
      },
    }),
});
