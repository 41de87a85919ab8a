// /ps policy max-run <duration|off>: a team machine running longer than this is warned, then stopped
// with its owner's key. From one minute (trials and demos) to a week.

import { z } from 'zod';
import { accept } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { formatLimit } from '../blocks/policy-words.js';
import { WARN_BEFORE_MS } from '../lease.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { readDurationOrOff } from './duration-or-off.js';

const MIN_LIMIT_MS = 60_000;
const MAX_LIMIT_MS = 7 * 24 * 3_600_000;

export const POLICY_ADMINS =
  'Only Slack workspace admins and owners who administer your Paperspace team may change it.';

export const policyMaxRunOperation = defineOperation({
  name: 'policy max-run',
  usage: `${ps} policy max-run <12h|off>`,
  summary:
    "Administrators: stop your team's machines that run longer than a limit (warned 30 minutes before).",
  help: {
    parameters: [
      '`12h`, `90m`, `1m`: the longest a team machine may run (1 minute to 168 hours); `off`: no limit.',
    ],
    examples: [`${ps} policy max-run 12h`, `${ps} policy max-run off`],
    effect: `Team machines running past the limit are warned, then stopped with their owner's key. ${POLICY_ADMINS}`,
  },
  kind: 'change',
  params: z.object({
    limitMs: z
      .number()
      .int()
      .min(MIN_LIMIT_MS)
      .max(MAX_LIMIT_MS)
      .nullable()
      .describe('The longest a team machine may run, in milliseconds, or null for no limit.'),
  }),
  read(args) {
    const limit = readDurationOrOff('policy max-run', args, {
      noun: 'limit',
      example: '12h',
      maxMs: MAX_LIMIT_MS,
      check: (ms) => (ms < MIN_LIMIT_MS ? 'the shortest is 1m' : null),
    });
    return limit.ok ? accept({ limitMs: limit.value }) : limit;
  },
  run: (params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.max_run',
      note: params.limitMs === null ? 'off' : formatLimit(params.limitMs),
      async change(team) {
        if (params.limitMs === null) {
          await deps.store.policies.clear(team, 'max_run');
          return '✅ Your team has no run limit now.';
        }
        await deps.store.policies.setRule(
          team,
          'max_run',
          { ms: params.limitMs },
          {
            setBy: context.user.userId,
            at: deps.now(),
          },
        );
        const warned =
          params.limitMs > WARN_BEFORE_MS
            ? '30 minutes before the limit'
            : 'as soon as they are seen running';
        return (
          `✅ Team machines may now run ${formatLimit(params.limitMs)} at a time, counted from their start or from now if later. ` +
          `Their owners are warned ${warned}, and they are stopped with the owner's own key unless an administrator extends them.`
        );
      },
    }),
});
