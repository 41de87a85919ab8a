// Readers of the commands about money: spend, the team digest and cost alerts.
import {
  fail,
  NO_OPTIONS,
  type ParseResult,
  splitArguments,
  splitWithoutKeyValues,
  success,
  tooMany,
  withoutArguments,
} from './command-arguments.js';
import { parseBillingMonth, parseTimeOfDay } from './command-values.js';
import { parseDuration } from './duration.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

/** A forgotten machine is one left running for hours; a week is past forgetting. */
const MAX_ALERT_THRESHOLD_MS = 7 * 24 * 3_600_000;

export function readAlerts(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('alerts', args, NO_OPTIONS);
  if (!split.ok) return split;
  const positionals = [...split.args.positionals];
  if (positionals.length === 0) return success({ name: 'alerts', scope: null, thresholdMs: null });
  let scope: 'self' | 'team' = 'self';
  if (positionals[0]?.text.toLowerCase() === 'default') {
    scope = 'team';
    positionals.shift();
    if (positionals.length === 0)
      return fail('alerts', 'Missing the default: give a duration such as 8h, or off.');
  }
  const extra = tooMany('alerts', positionals, 1, 'one duration or off');
  if (extra !== null) return extra;
  const typed = positionals[0]?.text ?? '';
  if (typed.toLowerCase() === 'off') return success({ name: 'alerts', scope, thresholdMs: null });
  const duration = parseDuration(typed, MAX_ALERT_THRESHOLD_MS);
  if (!duration.ok) return fail('alerts', `Invalid threshold ${echo(typed)}: ${duration.error}.`);
  return success({ name: 'alerts', scope, thresholdMs: duration.ms });
}

/** The most pages /ps spend can have: a team of thousands, a few dozen people a page. */
const MAX_SPEND_PAGE = 10_000;

export function readSpend(args: Token[]): ParseResult {
  const split = splitArguments('spend', args, NO_OPTIONS);
  if (!split.ok) return split;
  let page = 1;
  for (const token of split.args.keyValues) {
    const key = token.text.slice(0, token.equalsAt);
    const value = token.text.slice(token.equalsAt + 1);
    if (key.toLowerCase() !== 'page') {
      return fail('spend', `Unexpected ${echo(token.text)}: spend takes only page=N (the page of people).`);
    }
    if (!/^\d{1,5}$/.test(value) || Number(value) < 1 || Number(value) > MAX_SPEND_PAGE) {
      return fail('spend', `Invalid page ${echo(value)}: give a page number such as page=2.`);
    }
    page = Number(value);
  }
  const [monthToken] = split.args.positionals;
  let month: string | null = null;
  if (monthToken !== undefined) {
    const billingMonth = parseBillingMonth(monthToken.text);
    if (!billingMonth.ok)
      return fail('spend', `Invalid month ${echo(monthToken.text)}: ${billingMonth.error}.`);
    month = billingMonth.value;
  }
  const extra = tooMany('spend', split.args.positionals, 1, 'an optional YYYY-MM and page=N');
  return extra ?? success({ name: 'spend', month, page });
}

export function readDigest(args: Token[]): ParseResult {
  const [first, ...rest] = args;
  if (first?.text.toLowerCase() === 'off' && !first.quoted) return withoutArguments('digest off', rest);
  const split = splitWithoutKeyValues('digest', args, NO_OPTIONS);
  if (!split.ok) return split;
  const [where, scheduleToken, timeToken, zoneToken] = split.args.positionals;
  if (where === undefined) {
    return fail('digest', "Missing <#channel>: pick the channel from Slack's # list, or say off.");
  }
  if (where.slackChannelId === undefined) {
    return fail(
      'digest',
      `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
    );
  }
  const schedule = scheduleToken?.text.toLowerCase();
  if (schedule !== 'daily' && schedule !== 'weekly') {
    return fail(
      'digest',
      scheduleToken === undefined
        ? 'Missing daily or weekly after the channel.'
        : `Invalid schedule ${echo(scheduleToken.text)}: use daily or weekly (Mondays).`,
    );
  }
  if (timeToken === undefined)
    return fail('digest', 'Missing <HH:MM>: say when to post it, for example 09:00.');
  const time = parseTimeOfDay(timeToken.text);
  if (!time.ok) return fail('digest', `Invalid time ${echo(timeToken.text)}: ${time.error}.`);
  const extra = tooMany(
    'digest',
    split.args.positionals,
    4,
    'a channel, daily or weekly, a time and a time zone',
  );
  if (extra !== null) return extra;
  const { hour, minute } = time.value;
  const cron = `${minute} ${hour} * * ${schedule === 'weekly' ? '1' : '*'}`;
  return success({
    name: 'digest',
    channel: where.slackChannelId,
    schedule,
    time: time.value.time,
    cron,
    timezone: zoneToken?.text ?? null,
  });
}
