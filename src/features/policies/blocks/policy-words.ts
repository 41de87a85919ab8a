// How the team's rules and a machine's lease read to a person, in one place: the listing, the
// warnings, a card's lease line and the Home say them alike.
import { mention, slackDate } from '../../../slack/block-kit/text.js';
import type { OffHoursRule } from '../../../store/team-policies.js';

/** A run limit as people say it: `12 h`, `1 h 30 min`, `45 min`. */
export function formatLimit(ms: number): string {
  const minutes = Math.round(ms / 60_000);
  const hours = Math.floor(minutes / 60);
  const rest = minutes % 60;
  if (hours === 0) return `${rest} min`;
  return rest === 0 ? `${hours} h` : `${hours} h ${rest} min`;
}

export function describeOffHours(rule: OffHoursRule): string {
  return `${rule.start}-${rule.end} ${rule.days === 'weekdays' ? 'on weekdays' : 'every day'} (${rule.timezone})`;
}

/** Said on every warning, and when a key is linked on a team with policies. */
export const OWNERS_KEY_NOTICE =
  "Your team's policies stop machines with their owner's own Paperspace key: yours, for your machines.";

export function setByLine(setBy: string, setAt: number): string {
  return `set by ${mention(setBy)} ${slackDate(setAt, '{date_short_pretty}')}`;
}
