// Who decides a request (Approve, Deny) or withdraws it, as every step of a decision receives them.
import type { WebClient } from '@slack/web-api';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { ApprovalsDeps } from './approvals-deps.js';
import type { RequestSettled } from './request-settled.js';

export interface Decider {
  deps: ApprovalsDeps;
  web: WebClient;
  user: SlackUser;
  /** Answers the person who clicked, privately. */
  tell: (message: SlackMessage) => Promise<void>;
  /** Told how a request ended, for what waits on it beyond Slack's conversations (a workflow step). */
  settled: RequestSettled;
}
