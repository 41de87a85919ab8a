// Who clicked, and how to answer them alone. Every click acts with the clicker's own key, never with
// the key of whoever made the message the button sits in.
import type { BlockAction, RespondFn } from '@slack/bolt';
import type { SlackUser } from '../store/slack-user.js';
import { errorMessage } from './block-kit/messages.js';
import type { SlackMessage } from './block-kit/text.js';

export function clickerOf(body: BlockAction): SlackUser {
  return { teamId: body.user.team_id ?? body.team?.id ?? '', userId: body.user.id };
}

/** A reply only the clicker sees, below the message they clicked in (which stays as it was). */
export function replyBeside(respond: RespondFn, message: SlackMessage): Promise<unknown> {
  return respond({ response_type: 'ephemeral', replace_original: false, ...message });
}

/** Replaces the (ephemeral) message the button sat in. */
export function replaceClicked(respond: RespondFn, message: SlackMessage): Promise<unknown> {
  return respond({ replace_original: true, ...message });
}

export function replyError(respond: RespondFn, text: string): Promise<unknown> {
  return replyBeside(respond, errorMessage(text));
}
