// A person's name and e-mail as their Slack profile shows them (users.info; the e-mail needs
// users:read.email). Either may be missing: Slack refused, or the profile shows none (a bot, a guest
// whose e-mail is hidden). Callers say what they cannot do without it rather than guess.
import type { WebClient } from '@slack/web-api';
import type { Logger } from 'pino';
import { describeError } from '../errors/describe-error.js';

export interface SlackProfile {
  /** The name people see (real name, else display name, else handle). */
  name: string | undefined;
  email: string | undefined;
}

export async function slackProfile(web: WebClient, userId: string, logger: Logger): Promise<SlackProfile> {
  try {
    const { user } = await web.users.info({ user: userId });
    const profile = user?.profile;
    const name = profile?.real_name || profile?.display_name || user?.real_name || user?.name || undefined;
    return { name, email: profile?.email || undefined };
  } catch (error) {
    logger.warn({ error: describeError(error) }, 'users.info failed; the profile is unknown');
    return { name: undefined, email: undefined };
  }
}
