// What /ps create (inline) and the create modal share: the account's team added to the parameters,
// the checks (the client's schema, the template's OS rules, and a team machine's assignment to a
// person), and the public announcement of the new machine (card in the channel, then a watch until it
// has booted when it starts on creation).

import type { WebClient } from '@slack/web-api';
import { failureText } from '../../errors/user-message.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { RequestIssue } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import {
  type CreateMachineParams,
  createMachineParamsSchemaFor,
  type TemplateInfo,
  toRequestIssues,
} from '../../paperspace/requests.js';
import type { Template } from '../../paperspace/schemas.js';
import { errorMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import type { ListenerDeps } from '../../slack/listener-deps.js';
import { announce, type FollowUpPlace, withPrivateCopy } from '../../slack/posting.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { LinkedAccount } from '../../vault/key-vault.js';

import { machineCardMessage } from './blocks/machine-card.js';
import { createdNotice } from './blocks/machine-replies.js';
import type { CreateOutcome } from './machine-operations.js';

/**
 * A team administrator must create for their team (the contract's teamId); the person never has to
 * type it, since their linked account says which team it is. A teamId they did give is kept, so a
 * wrong one is refused by Paperspace rather than silently replaced.
 */
export function withAccountTeam(
  params: Record<string, unknown>,
  account: LinkedAccount | undefined,
): Record<string, unknown> {
  if (!account?.teamId || params.teamId !== undefined) return params;
  return { ...params, teamId: account.teamId };
}

const NEW_USER_FIELDS = ['email', 'password', 'firstName', 'lastName'] as const;

export type CheckedCreate = { ok: true; value: CreateMachineParams } | { ok: false; issues: RequestIssue[] };

/**
 * The create parameters as the client's schema sees them (with the template's rules once the template
 * is known), plus the contract's rule that a team machine is assigned to a person: the schema cannot
 * know the account is a team, so without this a team administrator would learn it from Paperspace
 * only after the form has closed.
 */
export function checkCreateParams(
  params: Record<string, unknown>,
  account: LinkedAccount | undefined,
  template?: TemplateInfo,
): CheckedCreate {
  const issues: RequestIssue[] = [];
  const parsed = createMachineParamsSchemaFor(template).safeParse(params);
  if (!parsed.success) issues.push(...toRequestIssues(parsed.error));
  const assigned =
    params.userId !== undefined || NEW_USER_FIELDS.some((field) => params[field] !== undefined);
  if (account?.teamId && !assigned) {
    issues.push({
      field: 'userId',
      message:
        'is required for a team machine: choose the team member it is for, or give email, password, ' +
        'firstName and lastName to create one',
    });
  }
  return parsed.success && issues.length === 0 ? { ok: true, value: parsed.data } : { ok: false, issues };
}

/** The template by id, as the person's key sees it; undefined when it is not listed. */
export async function findTemplate(
  client: PaperspaceClient,
  templateId: unknown,
  options?: RequestOptions,
): Promise<Template | undefined> {
  if (typeof templateId !== 'string' || templateId.trim() === '') return undefined;
  const [template] = await client.templates.list({ id: templateId.trim() }, options);
  return template;
}

export interface CreatedAnnouncement {
  deps: ListenerDeps;
  web: WebClient;
  user: SlackUser;
  outcome: CreateOutcome;
  /** Where the command was typed or the modal opened from; undefined (App Home): the person's DM. */
  channel: string | undefined;
  tell: (message: SlackMessage) => Promise<void>;
}

/**
 * The card goes through the fallback chain and never decides the watch: the machine exists whatever
 * Slack says, so it is watched either way, and the person hears where the card went (or that it went
 * nowhere, with the card itself).
 */
export async function announceCreated(announcement: CreatedAnnouncement): Promise<void> {
  const { web, user, outcome } = announcement;
  const { machine, targetState } = outcome;
  const card = machineCardMessage(machine, { notice: createdNotice(user.userId) });
  const { place, notice } = await announce(
    web,
    { channel: announcement.channel ?? user.userId, userId: user.userId },
    card,
    `the card of ${machine.name}`,
  );
  // With startOnCreate false the machine rests off after provisioning: nothing to wait for.
  const watching = targetState !== undefined && (await watchCreated(announcement, targetState, place));
  if (notice === undefined) return;
  const followUp = watching
    ? `I am watching *${escapeMrkdwn(machine.name)}* and will tell you when it is up.`
    : undefined;
  await announcement.tell(place.ts === undefined ? withPrivateCopy(notice, card, followUp) : notice);
}

async function watchCreated(
  announcement: CreatedAnnouncement,
  targetState: string,
  place: FollowUpPlace,
): Promise<boolean> {
  const { deps, user, outcome } = announcement;
  const { machine } = outcome;
  try {
    await deps.watcher.watch({
      user,
      machineId: machine.id,
      machineName: machine.name,
      // serviceready for LinuxHeadless, ready for desktops (bootedStateOf).
      targetState,
      channel: place.channel,
      ...(place.ts !== undefined ? { messageTs: place.ts } : {}),
      initialState: machine.state,
    });
    return true;
  } catch (error) {
    const reason = failureText(error, deps.logger);
    await announcement.tell(
      errorMessage(
        `${machine.name} was created, but I could not start watching it (${reason}). ` +
          `Use /ps wait ${machine.name} ${targetState} to be told when it is up.`,
      ),
    );
    return false;
  }
}
