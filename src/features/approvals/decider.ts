// Who decides a request (Approve, Deny) or withdraws it, as every step of a decision receives them.
import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import type { SlackUser } from '../../store/slack-user.js';

export interface Decider {
  deps: ListenerDeps;
  web: WebClient;
  user: SlackUser;
  /** Answers the person who clicked, privately. */
  tell: (message: SlackMessage) => Promise<void>;
}
