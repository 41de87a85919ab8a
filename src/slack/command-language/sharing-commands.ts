// Readers of the commands that bring other people in: sharing machines, and where requests for an
// administrator's approval go.
import {
  fail,
  NO_OPTIONS,
  type OptionSpec,
  type ParseResult,
  readMachine,
  splitWithoutKeyValues,
  success,
  tooMany,
} from './command-arguments.js';
import { parseDuration } from './duration.js';
import { echo } from './echo.js';
import type { Token } from './tokenize.js';

const EXPIRES: OptionSpec = { name: '--expires', takesValue: true };
/** A request left open longer than a week is forgotten rather than decided. */
const MAX_REQUEST_LIFETIME_MS = 7 * 24 * 3_600_000;

export function readApprovals(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('approvals', args, [EXPIRES]);
  if (!split.ok) return split;
  const [where] = split.args.positionals;
  if (where === undefined)
    return fail('approvals', "Missing <#channel>: pick the channel from Slack's # list, or say off.");
  const extra = tooMany('approvals', split.args.positionals, 1, 'one channel');
  if (extra !== null) return extra;
  let channel: string | null = null;
  if (where.text.toLowerCase() !== 'off') {
    if (where.slackChannelId === undefined) {
      return fail(
        'approvals',
        `Cannot tell which channel ${echo(where.text)} is: pick it from Slack's # list so it is sent as a link.`,
      );
    }
    channel = where.slackChannelId;
  }
  let lifetimeMs: number | null = null;
  const typedExpiry = split.args.options.get(EXPIRES.name);
  if (typeof typedExpiry === 'string') {
    const duration = parseDuration(typedExpiry, MAX_REQUEST_LIFETIME_MS);
    if (!duration.ok) return fail('approvals', `Invalid --expires ${echo(typedExpiry)}: ${duration.error}.`);
    lifetimeMs = duration.ms;
  }
  return success({ name: 'approvals', channel, lifetimeMs });
}

export function readShare(args: Token[]): ParseResult {
  const split = splitWithoutKeyValues('share', args, NO_OPTIONS);
  if (!split.ok) return split;
  const machines: string[] = [];
  const people: string[] = [];
  for (const token of split.args.positionals) {
    if (token.slackUserId !== null) {
      if (!people.includes(token.slackUserId)) people.push(token.slackUserId);
      continue;
    }
    const machine = readMachine('share', token);
    if (!machine.ok) return machine;
    // Naming a machine twice shares it once.
    if (!machines.includes(machine.value)) machines.push(machine.value);
  }
  if (machines.length === 0)
    return fail('share', 'Missing <machine>: give one or more machine ids or names.');
  return success({ name: 'share', machines, with: people });
}
