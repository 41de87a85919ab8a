// What a person does on the page, sent to the bot exactly as Slack sends it: a signed POST to
// /slack/events (slash commands as a form, interactions as a `payload` form field, events as JSON),
// with a trigger_id and a response_url that lead back to the stand-in. The bot's acknowledgement is
// then applied as Slack applies it: a message in the ack, or a view_submission's response_action.
import type { Logger } from 'pino';
import { blockAction, findElement } from './block-action.js';
import type { ChangeFeed } from './change-feed.js';
import { eventCallback, VERIFICATION_TOKEN } from './event-envelope.js';
import type { Grants } from './grants.js';
import { isRecord } from './http-util.js';
import { SANDBOX_APP, SANDBOX_TEAM } from './sandbox-identity.js';
import { ackFailure, createSignedSender } from './signed-sender.js';
import { buildStateValues, type EnteredValues } from './state-values.js';
import { applySubmissionAck } from './submission-ack.js';
import { slackEncodeTyped } from './typed-text.js';
import { toSlackView, type ViewStacks } from './view-stacks.js';
import { type Author, type PageMessage, toSlackMessage, type Workspace } from './workspace.js';

type Json = Record<string, unknown>;

/** The slash command the app registers (manifest.yml); any other is unknown to this workspace. */
const KNOWN_COMMANDS = new Set(['/ps']);
const TROUBLE = 'We had some trouble connecting. Try again?';
const SLACKBOT: Author = { kind: 'slackbot' };

export type Outcome = { ok: true } | { ok: false; error: string };

interface ActionInput {
  userId: string;
  /** Where the clicked element is. */
  container:
    | { kind: 'message'; channel: string; ts: string }
    | { kind: 'ephemeral'; ts: string }
    /** An app's unfurl of `url` under a person's message. */
    | { kind: 'unfurl'; channel: string; ts: string; url: string }
    | { kind: 'view'; viewId: string };
  blockId: string;
  actionId: string;
  /** The chosen option's value (overflow, selects, radio buttons), several for checkboxes, or a user id. */
  selected?: string | string[] | null;
  /** What is entered in the view's inputs, when the element sits in a view. */
  values?: EnteredValues;
}

export interface Interactions {
  slashCommand(input: { userId: string; channel: string; text: string; threadTs?: string }): Promise<Outcome>;
  /** A plain message typed in a conversation (the bot does not read them; people do). */
  say(input: { userId: string; channel: string; text: string; threadTs?: string }): Outcome;
  blockAction(input: ActionInput): Promise<Outcome>;
  submitView(input: { userId: string; viewId: string; values: EnteredValues }): Promise<Outcome>;
  /** Cancel (the top view only) or the close box (`all`: every view of the stack). */
  closeView(input: { userId: string; viewId: string; all: boolean }): Promise<Outcome>;
  openHome(userId: string): Promise<Outcome>;
}

export interface InteractionsOptions {
  workspace: Workspace;
  views: ViewStacks;
  grants: Grants;
  /** Notices for one person (a click the app did not answer) go out here. */
  feed: ChangeFeed;
  signingSecret: string;
  /** The bot's request URL (`http://127.0.0.1:<port>/slack/events`); known once the bot listens. */
  requestUrl: () => string;
  /** Builds the public URL of a response_url id, on the stand-in. */
  responseUrl: (id: string) => string;
  logger: Logger;
  now: () => number;
  ackTimeoutMs?: number;
  /** Told of each message a person posts (link-sharing.ts sends the app its links). */
  onPosted?: (message: PageMessage, userId: string) => Promise<void>;
}

export function createInteractions(options: InteractionsOptions): Interactions {
  const { workspace, views, grants, logger, now } = options;

  const userOf = (userId: string) => {
    const person = workspace.person(userId);
    return (
      person && { id: person.id, username: person.handle, name: person.handle, team_id: SANDBOX_TEAM.id }
    );
  };
  const team = { id: SANDBOX_TEAM.id, domain: SANDBOX_TEAM.domain };

  const { send, sendInteraction } = createSignedSender({
    signingSecret: options.signingSecret,
    requestUrl: options.requestUrl,
    logger,
    now,
    ...(options.ackTimeoutMs === undefined ? {} : { ackTimeoutMs: options.ackTimeoutMs }),
  });

  const directory = () => ({ people: workspace.people, channels: workspace.channels() });

  /** A message in a slash command's ack: ephemeral unless the app asks for in_channel. */
  const applyCommandAck = (userId: string, channel: string, body: unknown): void => {
    const message =
      typeof body === 'string'
        ? { text: body, blocks: [] as unknown[] }
        : isRecord(body)
          ? {
              text: typeof body.text === 'string' ? body.text : '',
              blocks: Array.isArray(body.blocks) ? body.blocks : [],
            }
          : undefined;
    if (message === undefined || (message.text === '' && message.blocks.length === 0)) return;
    if (isRecord(body) && body.response_type === 'in_channel')
      workspace.post(channel, { kind: 'bot' }, message);
    else workspace.postEphemeral(channel, userId, { kind: 'bot' }, message);
  };

  const isKnownUser = (userId: string) => workspace.person(userId) !== undefined;

  return {
    async slashCommand({ userId, channel, text, threadTs }) {
      const user = userOf(userId);
      const conversation = workspace.conversation(channel);
      if (!user || !conversation || !workspace.isMember(conversation.id, userId)) {
        return { ok: false, error: 'no such person or conversation' };
      }
      const [command = ''] = text.trim().split(/\s+/);
      const post = (line: string) =>
        workspace.postEphemeral(conversation.id, userId, SLACKBOT, { text: line, blocks: [] }, threadTs);
      if (!KNOWN_COMMANDS.has(command)) {
        post(
          `${slackEncodeTyped(command, directory())} is not a valid command. In Slack, all messages that start with the "/" character are interpreted as commands.`,
        );
        return { ok: true };
      }
      if (threadTs !== undefined) {
        post(`${command} is not supported in threads. Sorry!`);
        return { ok: true };
      }
      if (conversation.kind === 'im') return { ok: false, error: 'the app’s Messages tab is read-only' };
      const responseUrl = options.responseUrl(
        grants.issueResponseUrl({ userId, channel: conversation.id, source: { kind: 'command' } }),
      );
      const form = {
        token: VERIFICATION_TOKEN,
        team_id: SANDBOX_TEAM.id,
        team_domain: SANDBOX_TEAM.domain,
        channel_id: conversation.id,
        channel_name: conversation.kind === 'private' ? 'privategroup' : conversation.name,
        user_id: userId,
        user_name: user.username,
        command,
        text: slackEncodeTyped(text.trim().slice(command.length).trim(), directory()),
        api_app_id: SANDBOX_APP.appId,
        is_enterprise_install: 'false',
        response_url: responseUrl,
        trigger_id: grants.issueTrigger(userId),
      };
      const ack = await send('application/x-www-form-urlencoded', new URLSearchParams(form).toString());
      const failure = ackFailure(ack);
      if (failure !== undefined) {
        post(`${command} failed with the error "${failure}"`);
        return { ok: false, error: failure };
      }
      if ('body' in ack) applyCommandAck(userId, conversation.id, ack.body);
      return { ok: true };
    },

    say({ userId, channel, text, threadTs }) {
      const conversation = workspace.conversation(channel);
      if (!conversation || !workspace.isMember(conversation.id, userId) || conversation.kind === 'im') {
        return { ok: false, error: 'you cannot post in this conversation' };
      }
      if (text.trim() === '') return { ok: false, error: 'nothing to send' };
      const encoded = slackEncodeTyped(text, directory());
      const posted = workspace.post(
        conversation.id,
        { kind: 'user', userId },
        { text: encoded, blocks: [] },
        threadTs,
      );
      options.onPosted?.(posted, userId).catch((error: unknown) => {
        logger.error({ err: error }, 'sending the app what was posted failed');
      });
      return { ok: true };
    },

    async blockAction(input) {
      const user = userOf(input.userId);
      if (!user) return { ok: false, error: 'no such person' };
      const common = {
        type: 'block_actions',
        user,
        api_app_id: SANDBOX_APP.appId,
        token: VERIFICATION_TOKEN,
        trigger_id: grants.issueTrigger(input.userId),
        team,
        enterprise: null,
        is_enterprise_install: false,
      };
      let payload: Json;
      if (input.container.kind === 'view') {
        const record = views.find(input.container.viewId);
        if (record === undefined || record.userId !== input.userId)
          return { ok: false, error: 'that view is closed' };
        const blocks = Array.isArray(record.view.blocks) ? record.view.blocks : [];
        const element = findElement(blocks, input.blockId, input.actionId);
        if (element === undefined) return { ok: false, error: 'no such element in the view' };
        const action = blockAction(element, input, { now, isKnownUser });
        if (typeof action === 'string') return { ok: false, error: action };
        const { values } = buildStateValues(blocks, input.values ?? {}, isKnownUser);
        payload = {
          ...common,
          container: { type: 'view', view_id: record.id },
          view: toSlackView(record, values),
          actions: [action],
        };
      } else {
        const ephemeral = input.container.kind === 'ephemeral';
        const message: PageMessage | undefined =
          input.container.kind === 'ephemeral'
            ? workspace.ephemeral(input.userId, input.container.ts)
            : workspace.message(input.container.channel, input.container.ts);
        if (message === undefined) return { ok: false, error: 'that message is gone' };
        if (!workspace.isMember(message.channel, input.userId))
          return { ok: false, error: 'not in that conversation' };
        // A click in an app unfurl: the element sits in the unfurl's blocks, not the message's.
        const { container } = input;
        const unfurlIndex =
          container.kind === 'unfurl' ? message.unfurls.findIndex((u) => u.url === container.url) : -1;
        if (container.kind === 'unfurl' && unfurlIndex < 0)
          return { ok: false, error: 'that unfurl is gone' };
        const blocks = message.unfurls[unfurlIndex]?.blocks ?? message.blocks;
        const element = findElement(blocks, input.blockId, input.actionId);
        if (element === undefined) return { ok: false, error: 'no such element in the message' };
        const action = blockAction(element, input, { now, isKnownUser });
        if (typeof action === 'string') return { ok: false, error: action };
        const conversation = workspace.conversation(message.channel);
        const responseUrl = options.responseUrl(
          grants.issueResponseUrl({
            userId: input.userId,
            channel: message.channel,
            // The message around an unfurl is the poster's: its response_url may not replace it.
            source: unfurlIndex < 0 ? { kind: 'message', ts: message.ts, ephemeral } : { kind: 'command' },
          }),
        );
        payload = {
          ...common,
          container:
            unfurlIndex < 0
              ? {
                  type: 'message',
                  message_ts: message.ts,
                  channel_id: message.channel,
                  is_ephemeral: ephemeral,
                }
              : {
                  type: 'message_attachment',
                  message_ts: message.ts,
                  attachment_id: unfurlIndex + 1,
                  channel_id: message.channel,
                  is_ephemeral: false,
                  is_app_unfurl: true,
                  app_unfurl_url: message.unfurls[unfurlIndex]?.url,
                },
          channel: {
            id: message.channel,
            name: conversation?.kind === 'im' ? 'directmessage' : conversation?.name,
          },
          // Slack sends no message for a click on an ephemeral one: the app never saw it stored.
          ...(ephemeral ? {} : { message: toSlackMessage(message) }),
          state: { values: buildStateValues(blocks, input.values ?? {}, isKnownUser).values },
          response_url: responseUrl,
          actions: [action],
        };
      }
      const failure = ackFailure(await sendInteraction(payload));
      if (failure !== undefined) {
        options.feed.emit({
          type: 'notice',
          userId: input.userId,
          text: `${SANDBOX_APP.name} did not respond to that click (${failure}).`,
        });
        return { ok: false, error: failure };
      }
      return { ok: true };
    },

    async submitView({ userId, viewId, values: entered }) {
      const user = userOf(userId);
      const top = views.modals(userId).at(-1);
      if (!user || top === undefined || top.id !== viewId)
        return { ok: false, error: 'that view is not open' };
      const blocks = Array.isArray(top.view.blocks) ? top.view.blocks : [];
      const { values, errors } = buildStateValues(blocks, entered, isKnownUser);
      if (Object.keys(errors).length > 0) {
        views.setErrors(viewId, errors);
        return { ok: true };
      }
      const ack = await sendInteraction({
        type: 'view_submission',
        team,
        user,
        api_app_id: SANDBOX_APP.appId,
        token: VERIFICATION_TOKEN,
        trigger_id: grants.issueTrigger(userId),
        view: toSlackView(top, values),
        response_urls: [],
        enterprise: null,
        is_enterprise_install: false,
      });
      const failure = ackFailure(ack);
      if (failure !== undefined || !('body' in ack)) {
        views.setProblem(viewId, TROUBLE);
        return { ok: false, error: failure ?? 'dispatch_failed' };
      }
      const problem = applySubmissionAck(views, userId, top.id, blocks, ack.body);
      if (problem !== undefined) {
        logger.warn({ problem }, 'Slack would refuse the app’s answer to a view submission');
        views.setProblem(viewId, `${TROUBLE} (The sandbox says: ${problem}.)`);
        return { ok: false, error: problem };
      }
      return { ok: true };
    },

    async closeView({ userId, viewId, all }) {
      const user = userOf(userId);
      const stack = views.modals(userId);
      const top = stack.at(-1);
      if (!user || top === undefined || top.id !== viewId)
        return { ok: false, error: 'that view is not open' };
      if (all) views.clear(userId);
      else views.closeTop(userId);
      if (top.view.notify_on_close !== true) return { ok: true };
      const failure = ackFailure(
        await sendInteraction({
          type: 'view_closed',
          team,
          user,
          api_app_id: SANDBOX_APP.appId,
          token: VERIFICATION_TOKEN,
          view: toSlackView(top),
          is_cleared: all && stack.length > 1,
          enterprise: null,
          is_enterprise_install: false,
        }),
      );
      return failure === undefined ? { ok: true } : { ok: false, error: failure };
    },

    async openHome(userId) {
      if (!userOf(userId)) return { ok: false, error: 'no such person' };
      const home = views.home(userId);
      const eventTs = (now() / 1000).toFixed(6);
      const body = eventCallback(
        {
          type: 'app_home_opened',
          user: userId,
          channel: workspace.conversation(userId)?.id,
          tab: 'home',
          ...(home ? { view: toSlackView(home) } : {}),
          event_ts: eventTs,
        },
        now(),
      );
      const failure = ackFailure(await send('application/json', JSON.stringify(body)));
      return failure === undefined ? { ok: true } : { ok: false, error: failure };
    },
  };
}
