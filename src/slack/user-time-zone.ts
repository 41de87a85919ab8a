// A person's time zone, for what they schedule (a reminder, a team digest): the one set in their Slack
// profile. Slack may not say (users.info refused, no tz, or a zone this runtime cannot schedule in),
// and then UTC is used and `fellBack` lets the command tell the person so.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';

export interface UserTimeZone {
  /** An IANA name, e.g. Europe/Berlin. */
  timezone: string;
  /** True when Slack did not give a usable time zone and this is UTC instead. */
  fellBack: boolean;
}

export async function userTimeZone(request: {
  web: WebClient;
  userId: string;
  /** Whether a zone can be used: the cron engine's check, passed in because slack/ sits below the scheduler. */
  usable: (timezone: string) => boolean;
  logger: Logger;
}): Promise<UserTimeZone> {
  try {
    const answer = await request.web.users.info({ user: request.userId });
    const tz = answer.user?.tz;
    if (typeof tz === 'string' && request.usable(tz)) return { timezone: tz, fellBack: false };
  } catch (error) {
    request.logger.warn({ error: describeError(error) }, 'users.info failed; using UTC');
  }
  return { timezone: 'UTC', fellBack: true };
}
