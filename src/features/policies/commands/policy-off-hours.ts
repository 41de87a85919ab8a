// /ps policy off-hours <HH:MM-HH:MM|off> [weekdays|daily] [time zone]: running team machines are
// warned 30 minutes before off-hours begin and stopped when they do. The time zone is the one typed,
// else the administrator's Slack time zone (as for /ps digest).

import { z } from 'zod';
import { UserFacingError } from '../../../errors/user-facing-error.js';
import { isKnownTimeZone } from '../../../scheduler/cron-engine.js';
import { slackDate } from '../../../slack/block-kit/text.js';
import {
  accept,
  fail,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { parseTimeOfDay } from '../../../slack/command-language/command-values.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { userTimeZone } from '../../../slack/user-time-zone.js';
import { describeOffHours } from '../blocks/policy-words.js';
import { nextOffHours } from '../lease.js';
import type { PoliciesDeps } from '../policies-deps.js';
import { changePolicy } from '../policy-setting.js';
import { POLICY_ADMINS } from './policy-max-run.js';

const TIME = z.string().regex(/^([01]\d|2[0-3]):[0-5]\d$/);

export const policyOffHoursOperation = defineOperation({
  name: 'policy off-hours',
  usage: `${ps} policy off-hours <20:00-07:00|off> [weekdays|daily] [time zone]`,
  summary:
    "Administrators: stop your team's running machines when off-hours begin (warned 30 minutes before).",
  help: {
    parameters: [
      '`20:00-07:00`: when off-hours begin and end; `off`: no off-hours.',
      '`weekdays` (default: off-hours begin Monday to Friday) or `daily`.',
      '`[time zone]`: `Europe/Berlin`; default: your Slack time zone.',
    ],
    examples: [`${ps} policy off-hours 20:00-07:00 weekdays Europe/Berlin`, `${ps} policy off-hours off`],
    effect: `Running team machines are warned, then stopped with their owner's key when off-hours begin. ${POLICY_ADMINS}`,
  },
  kind: 'change',
  params: z.object({
    offHours: z
      .object({
        start: TIME.describe('When off-hours begin, HH:MM.'),
        end: TIME.describe('When they end, HH:MM.'),
        days: z.enum(['weekdays', 'daily']).describe('Off-hours begin Monday to Friday, or every day.'),
        timezone: z.string().nullable().describe("An IANA time zone, or null for the person's own."),
      })
      .nullable()
      .describe('The off-hours, or null to have none.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('policy off-hours', args);
    if (!split.ok) return split;
    const [window, daysToken, zoneToken] = split.args.positionals;
    if (window === undefined) return fail('Missing the hours: say when, for example 20:00-07:00, or off.');
    if (window.text.toLowerCase() === 'off') {
      const extra = tooMany('policy off-hours', split.args.positionals, 1, 'nothing after off');
      return extra ?? accept({ offHours: null });
    }
    const [from, to, ...rest] = window.text.split('-');
    const start = parseTimeOfDay(from ?? '');
    const end = parseTimeOfDay(to ?? '');
    if (rest.length > 0 || !start.ok || !end.ok) {
      return fail(
        `Invalid hours ${echo(window.text)}: give two times joined by a dash, for example 20:00-07:00.`,
      );
    }
    if (start.value.time === end.value.time) {
      return fail(`Invalid hours ${echo(window.text)}: off-hours must begin and end at different times.`);
    }
    const days = daysToken?.text.toLowerCase() ?? 'weekdays';
    if (days !== 'weekdays' && days !== 'daily') {
      return fail(`Invalid days ${echo(daysToken?.text ?? '')}: use weekdays or daily.`);
    }
    const extra = tooMany('policy off-hours', split.args.positionals, 3, 'hours, the days and a time zone');
    if (extra !== null) return extra;
    return accept({
      offHours: { start: start.value.time, end: end.value.time, days, timezone: zoneToken?.text ?? null },
    });
  },
  run: (params, context, deps: PoliciesDeps) =>
    changePolicy(deps, context, {
      action: 'policy.off_hours',
      note:
        params.offHours === null
          ? 'off'
          : `${params.offHours.start}-${params.offHours.end} ${params.offHours.days}`,
      async change(team) {
        if (params.offHours === null) {
          await deps.store.policies.clear(team, 'off_hours');
          return '✅ Your team has no off-hours now.';
        }
        const timezone = params.offHours.timezone ?? (await adminTimeZone(deps, context));
        if (!isKnownTimeZone(timezone)) {
          throw new UserFacingError(
            'Unknown time zone: give an IANA name such as Europe/Berlin or America/New_York, or leave it out to use yours.',
          );
        }
        const rule = { ...params.offHours, timezone };
        const now = deps.now();
        await deps.store.policies.setRule(team, 'off_hours', rule, { setBy: context.user.userId, at: now });
        const next = nextOffHours(rule, now);
        return [
          `✅ Your team's off-hours are ${describeOffHours(rule)}.`,
          next === undefined ? '' : `They next begin ${slackDate(next, '{date_short_pretty} at {time}')}.`,
          "Running team machines are warned 30 minutes before and stopped with their owner's own key when off-hours begin, unless kept running or exempted.",
        ]
          .filter((line) => line !== '')
          .join(' ');
      },
    }),
});

async function adminTimeZone(
  deps: PoliciesDeps,
  context: { web: Parameters<typeof userTimeZone>[0]['web']; user: { userId: string } },
) {
  const zone = await userTimeZone({
    web: context.web,
    userId: context.user.userId,
    usable: isKnownTimeZone,
    logger: deps.logger,
  });
  return zone.timezone;
}
