import { describe, expect, it } from 'vitest';
import { isKnownTimeZone } from '../../src/scheduler/cron-engine.js';
import { userTimeZone } from '../../src/slack/user-time-zone.js';
import { captureLogs } from '../support/log-capture.js';
import { useFakeSlack } from '../support/use-fake-slack.js';

const fake = useFakeSlack();

const lookUp = (userId: string) =>
  userTimeZone({ web: fake.web, userId, usable: isKnownTimeZone, logger: captureLogs().logger });

describe('userTimeZone', () => {
  it("answers the time zone of the person's Slack profile", async () => {
    fake.slack.setUser({ id: 'U-ada', tz: 'Europe/Berlin' });
    expect(await lookUp('U-ada')).toEqual({ timezone: 'Europe/Berlin', fellBack: false });
  });

  it('falls back to UTC, and says so, for a zone the runtime cannot schedule in', async () => {
    fake.slack.setUser({ id: 'U-ada', tz: 'Mars/Olympus_Mons' });
    expect(await lookUp('U-ada')).toEqual({ timezone: 'UTC', fellBack: true });
  });

  it('falls back to UTC, and says so, when Slack refuses users.info', async () => {
    fake.slack.fail('users.info', 'user_not_found');
    expect(await lookUp('U-ada')).toEqual({ timezone: 'UTC', fellBack: true });
  });
});
