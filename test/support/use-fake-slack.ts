// The lifecycle of a test that calls the Web API itself (no bot): one fake Slack per test file, a Web
// API client pointed at it that does not retry, and the fake's record cleared before each test.
import { WebClient } from '@slack/web-api';
import { afterAll, beforeAll, beforeEach } from 'vitest';
import { type FakeSlack, startFakeSlack } from './fake-slack.js';

export interface FakeSlackWithClient {
  slack: FakeSlack;
  web: WebClient;
}

/** Registers the file's hooks; read `slack` and `web` in tests and hooks, once beforeAll has run. */
export function useFakeSlack(): FakeSlackWithClient {
  const handle = {} as FakeSlackWithClient;
  beforeAll(async () => {
    handle.slack = await startFakeSlack();
    handle.web = new WebClient('xoxb-test', {
      slackApiUrl: handle.slack.apiUrl,
      retryConfig: { retries: 0 },
    });
  });
  afterAll(() => handle.slack.close());
  beforeEach(() => handle.slack.reset());
  return handle;
}
