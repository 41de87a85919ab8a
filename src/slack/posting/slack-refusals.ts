// Sorting Slack's answers to a failed post: refused for the conversation (another may take it),
// refused for the message itself (too big or malformed: the words alone may pass, here), rate limited
// ("not yet"), or of unknown fate (it may have landed, so it is never sent again). posting.ts acts on
// these answers; the watches and shares features read them the same way.

import { webApi } from '@slack/bolt';
import { describeError, slackErrorCode } from '../../errors/describe-error.js';
import { retryAfterSeconds } from './rate-limit-waits.js';

/**
 * Slack's answers when the bot may not post in a conversation: a private channel it was not invited
 * to, a DM between other people, an archived or deleted channel, a workspace rule against apps posting
 * there (#general, read-only and thread-only channels), or a person who is not in the channel (for an
 * ephemeral message).
 */
const CANNOT_POST_HERE = new Set([
  'not_in_channel',
  'channel_not_found',
  'is_archived',
  'restricted_action',
  'restricted_action_read_only_channel',
  'restricted_action_thread_only_channel',
  'restricted_action_non_threadable_channel',
  'posting_to_general_channel_denied',
  'team_access_not_granted',
  'user_not_in_channel',
  'cannot_reply_to_message',
]);
/** Refusals of the message itself, too big or malformed: the same words without blocks usually pass. */
const CANNOT_POST_THIS = new Set([
  'invalid_blocks',
  'invalid_blocks_format',
  'msg_blocks_too_long',
  'msg_too_long',
  'invalid_attachments',
]);

/** True when Slack refused a post because of where it was going, so another conversation may take it. */
export function isRefusedConversation(error: unknown): boolean {
  return CANNOT_POST_HERE.has(slackErrorCode(error) ?? '');
}

/**
 * Slack's own errors after which, its documentation says, some of the operation may have happened.
 */
const FATE_UNKNOWN = new Set(['internal_error', 'fatal_error', 'request_timeout', 'service_unavailable']);

/**
 * True when Slack's answer proves the call did nothing: it refused it (`ok: false` with a reason), or
 * rate limited it. A timeout, a dropped connection, an HTTP 5xx or Slack's `internal_error` leave the
 * fate of a post unknown.
 */
export function provesNothingPosted(error: unknown): boolean {
  const code = slackErrorCode(error);
  if (code !== undefined) return !FATE_UNKNOWN.has(code);
  return describeError(error).code === webApi.ErrorCode.RateLimitedError;
}

/** The refusal of a post Slack still rate limited after waiting out its Retry-After. */
export const RATE_LIMITED = 'rate limited';

/** What Slack said, for a person: its error code, "rate limited", or that it did not answer. */
export function slackRefusalText(error: unknown): string {
  const code = slackErrorCode(error);
  if (code !== undefined) return code;
  const description = describeError(error);
  if (description.code === webApi.ErrorCode.RateLimitedError) return RATE_LIMITED;
  // No HTTP code for people: whether Slack failed or refused is what they can act on.
  if (description.statusCode !== undefined) {
    return description.statusCode >= 500 ? 'Slack had an internal problem' : 'Slack refused it';
  }
  return 'no answer';
}

/** True when Slack refused the message itself (too big, or blocks it will not take), not the place. */
export function isRefusedMessage(error: unknown): boolean {
  return CANNOT_POST_THIS.has(slackErrorCode(error) ?? '');
}

/**
 * Where a post that failed may still go: `unknown` when it may have landed (nothing is sent again),
 * `nowhere` when it was still rate limited after waiting or Slack takes the message nowhere (the DM is
 * no answer to either), `elsewhere` when this conversation refused it and another may take it.
 */
export function afterFailedPost(error: unknown): 'unknown' | 'nowhere' | 'elsewhere' {
  if (!provesNothingPosted(error)) return 'unknown';
  if (retryAfterSeconds(error) !== undefined || isRefusedMessage(error)) return 'nowhere';
  return 'elsewhere';
}
