// /ps policy exempt <machine> until <day>: an administrator keeps one machine out of the run limit and
// the off-hours until the end of that day (today, tomorrow or YYYY-MM-DD, in the off-hours' time
// zone, else UTC).

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { nextFireTime } from '../../../scheduler/cron-engine.js';
import { nameMrkdwn, slackDate } from '../../../slack/block-kit/text.js';
import {
  accept,
  fail,
  readMachine,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { findMachine } from '../../machines/machine-lookup.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';

const DAY = /^(today|tomorrow|\d{4}-(0[1-9]|1[0-2])-(0[1-9]|[12]\d|3[01]))$/;
/** An exemption is for a trip or a long job, not a way around the rules. */
const MAX_EXEMPTION_MS = 31 * 24 * 3_600_000;

export const policyExemptOperation = defineOperation({
  name: 'policy exempt',
  usage: `${ps} policy exempt <machine> until <today|tomorrow|YYYY-MM-DD>`,
  summary:
    "Administrators: keep one machine out of your team's run limit and off-hours until the end of a day.",
  help: {
    parameters: [
      '`<machine>`: its name or id.',
      '`until <day>`: today, tomorrow or a date such as 2026-12-24.',
    ],
    examples: [
      `${ps} policy exempt team-build until tomorrow`,
      `${ps} policy exempt maya-trainer until 2026-12-24`,
    ],
    effect: "The machine is neither warned nor stopped by your team's policies until that day ends.",
  },
  kind: 'change',
  params: z.object({
    machine: z.string().min(1).describe('The machine id or name.'),
    until: z.string().regex(DAY).describe('today, tomorrow, or a date YYYY-MM-DD: the last day exempted.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('policy exempt', args);
    if (!split.ok) return split;
    const [machineToken, untilWord, dayToken] = split.args.positionals;
    const machine = readMachine(machineToken);
    if (!machine.ok) return machine;
    if (untilWord?.text.toLowerCase() !== 'until' || dayToken === undefined) {
      return fail('Missing until <day>: say the last day, for example until tomorrow or until 2026-12-24.');
    }
    const day = dayToken.text.toLowerCase();
    if (!DAY.test(day)) return fail(`Invalid day ${echo(dayToken.text)}: use today, tomorrow or YYYY-MM-DD.`);
    const extra = tooMany('policy exempt', split.args.positionals, 3, 'a machine and until <day>');
    return extra ?? accept({ machine: machine.value, until: day });
  },
  run: (params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.exempt',
      note: `until ${params.until}`,
      async change(team, client) {
        const machine = await findMachine(client, params.machine);
        const rules = await deps.store.policies.rules(team);
        const timezone = rules.off_hours?.timezone ?? 'UTC';
        const now = deps.now();
        const untilAt = endOfDay(params.until, timezone, now);
        if (untilAt <= now || untilAt - now > MAX_EXEMPTION_MS) {
          throw new UserFacingError(
            'An exemption ends after today and within 31 days: pick a day in that range.',
          );
        }
        await deps.store.policies.exempt(
          team,
          { machineId: machine.id, machineName: machine.name, untilAt, setBy: context.user.userId },
          now,
        );
        return `✅ ${nameMrkdwn(machine.name)} is exempt from your team's run limit and off-hours until ${slackDate(untilAt, '{date_short_pretty} {time}')}.`;
      },
    }),
});

/** The end of `day` (midnight after it) in `timezone`. */
function endOfDay(day: string, timezone: string, now: number): number {
  const date = day === 'today' || day === 'tomorrow' ? localDate(now, timezone) : day;
  const [year, month, date_] = date.split('-').map(Number);
  const noon = Date.UTC(year ?? 0, (month ?? 1) - 1, (date_ ?? 1) + (day === 'tomorrow' ? 1 : 0), 12);
  return nextFireTime('0 0 * * *', timezone, noon) ?? noon;
}

function localDate(at: number, timezone: string): string {
  return new Intl.DateTimeFormat('en-CA', {
    timeZone: timezone,
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
  }).format(at);
}
