import { type BufferedIncomingMessage, HTTPModuleFunctions, verifySlackRequest } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { createSlackRequests, type SlackRequest } from './slack-requests.js';

const SECRET = 'slack-requests-test-secret';
const requests = createSlackRequests({
  signingSecret: SECRET,
  responseUrl: (id) => `http://127.0.0.1:1/response-url/${id}`,
});

// Checks a request the way Bolt's HTTPReceiver does (same functions), so these helpers cannot drift from it.
function verify(request: SlackRequest): void {
  verifySlackRequest({
    signingSecret: SECRET,
    body: request.body,
    headers: {
      'x-slack-signature': request.headers['x-slack-signature'] ?? '',
      'x-slack-request-timestamp': Number(request.headers['x-slack-request-timestamp']),
    },
  });
}

function parseAsBolt(request: SlackRequest): Record<string, unknown> {
  const buffered = {
    rawBody: Buffer.from(request.body),
    headers: request.headers,
  } as unknown as BufferedIncomingMessage;
  return HTTPModuleFunctions.parseHTTPRequestBody(buffered);
}

describe('createSlackRequests', () => {
  it('signs requests so that Bolt accepts them', () => {
    expect(() => verify(requests.slashCommand({ text: 'list' }))).not.toThrow();
    expect(() => verify(requests.event({ type: 'app_home_opened', user: 'U1' }))).not.toThrow();
  });

  it('signs badly or with an old timestamp on request, and Bolt refuses both', () => {
    expect(() => verify(requests.slashCommand({ text: 'list' }, { badSignature: true }))).toThrow(
      /signature mismatch/,
    );
    expect(() => verify(requests.slashCommand({ text: 'list' }, { ageSeconds: 360 }))).toThrow(/stale/);
  });

  it('form-encodes a slash command with the fields Slack sends', () => {
    const request = requests.slashCommand({
      text: 'start "My Machine" --no-wait',
      userId: 'U7',
      responseUrlId: 'r1',
    });

    expect(request.headers['content-type']).toBe('application/x-www-form-urlencoded');
    expect(parseAsBolt(request)).toMatchObject({
      command: '/ps',
      text: 'start "My Machine" --no-wait',
      user_id: 'U7',
      team_id: 'T0FAKE',
      response_url: 'http://127.0.0.1:1/response-url/r1',
    });
    expect(request.responseUrlId).toBe('r1');
  });

  it('puts block actions and view submissions in a payload form field', () => {
    const action = parseAsBolt(
      requests.blockAction({
        actionId: 'machine_overflow',
        elementType: 'overflow',
        selectedOption: { value: 'destroy' },
      }),
    );
    const submission = parseAsBolt(
      requests.viewSubmission({
        callbackId: 'login_modal',
        values: { key: { input: 'abc' } },
        privateMetadata: 'm',
      }),
    );

    expect(action).toMatchObject({
      type: 'block_actions',
      actions: [{ action_id: 'machine_overflow', type: 'overflow', selected_option: { value: 'destroy' } }],
      container: { type: 'message' },
    });
    expect(submission).toMatchObject({
      type: 'view_submission',
      view: {
        callback_id: 'login_modal',
        private_metadata: 'm',
        state: { values: { key: { input: { type: 'plain_text_input', value: 'abc' } } } },
      },
    });
  });

  it('gives actions inside a view no response_url, as Slack does', () => {
    const payload = parseAsBolt(
      requests.blockAction({ actionId: 'list_page', value: '2', view: { type: 'home' } }),
    );

    expect(payload.response_url).toBeUndefined();
    expect(payload).toMatchObject({ view: { type: 'home' }, container: { type: 'view' } });
  });
});
