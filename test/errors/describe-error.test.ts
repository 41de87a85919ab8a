import { MultipleListenerError, webApi } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { describeError, describeSlackRequest } from '../../src/errors/describe-error.js';

describe('describeError', () => {
  it("names Slack's error string for Web API platform errors", () => {
    const error = new webApi.WebAPIPlatformError({ ok: false, error: 'channel_not_found' });

    expect(describeError(error)).toMatchObject({
      type: 'WebAPIPlatformError',
      code: 'slack_webapi_platform_error',
      slackError: 'channel_not_found',
    });
  });

  it('redacts Slack tokens from messages and keeps no other error fields', () => {
    const error = Object.assign(new Error('call with xoxb-123-456-abcdef failed'), {
      headers: { authorization: 'Bearer xoxb-123-456-abcdef' },
    });

    const text = JSON.stringify(describeError(error));

    expect(text).toContain('call with xoxb-[redacted] failed');
    expect(text).not.toContain('abcdef');
  });

  it('describes every listener error when several listeners failed', () => {
    const error = new MultipleListenerError([new Error('first'), new Error('second')]);

    expect(describeError(error).causes?.map((cause) => cause.message)).toEqual(['first', 'second']);
  });
});

describe('describeSlackRequest', () => {
  it('names a view submission by callback_id and user, leaving the submitted values out', () => {
    const body = {
      type: 'view_submission',
      user: { id: 'U1' },
      team: { id: 'T1' },
      view: { callback_id: 'login_modal', state: { values: { key: { input: { value: 'the-api-key' } } } } },
    };

    const description = describeSlackRequest(body);

    expect(description).toEqual({
      kind: 'view_submission',
      userId: 'U1',
      teamId: 'T1',
      callbackId: 'login_modal',
    });
    expect(JSON.stringify(description)).not.toContain('the-api-key');
  });

  it('names an event by its type and user', () => {
    const body = { type: 'event_callback', team_id: 'T1', event: { type: 'app_home_opened', user: 'U2' } };

    expect(describeSlackRequest(body)).toEqual({
      kind: 'event',
      teamId: 'T1',
      eventType: 'app_home_opened',
      userId: 'U2',
    });
  });
});
