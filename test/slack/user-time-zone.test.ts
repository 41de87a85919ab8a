import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { isKnownTimeZone } from '../../src/scheduler/cron-engine.js';
import { userTimeZone } from '../../src/slack/user-time-zone.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import { captureLogs } from '../support/log-capture.js';

let slack: FakeSlack;
let web: WebClient;

beforeAll(async () => {
  slack = await startFakeSlack();
  web = new WebClient('xoxb-tz', { slackApiUrl: slack.apiUrl, retryConfig: { retries: 0 } });
});
afterAll(() => slack.close());
beforeEach(() => slack.reset());

const lookUp = (userId: string) =>
  userTimeZone({ web, userId, usable: isKnownTimeZone, logger: captureLogs().logger });

describe('userTimeZone', () => {
  it("answers the time zone of the person's Slack profile", async () => {
    slack.setUser({ id: 'U-ada', tz: 'Europe/Berlin' });
    expect(await lookUp('U-ada')).toEqual({ timezone: 'Europe/Berlin', fellBack: false });
  });

  it('falls back to UTC, and says so, for a zone the runtime cannot schedule in', async () => {
    slack.setUser({ id: 'U-ada', tz: 'Mars/Olympus_Mons' });
    expect(await lookUp('U-ada')).toEqual({ timezone: 'UTC', fellBack: true });
  });

  it('falls back to UTC, and says so, when Slack refuses users.info', async () => {
    slack.fail('users.info', 'user_not_found');
    expect(await lookUp('U-ada')).toEqual({ timezone: 'UTC', fellBack: true });
  });
});
