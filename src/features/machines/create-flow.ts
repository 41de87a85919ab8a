// What /ps create (inline) and the create modal share: the account's team added to the parameters,
// the checks (the client's schema, the template's OS rules, and who the machine belongs to: a team
// machine is assigned to a person, an individual account's is the caller's), and the public announcement of the new machine (card in the channel, then a watch until it
// has booted when it starts on creation).

import type { WebClient } from '@slack/web-api';
import { learnRoleFromCreate } from '../../domain/team-role.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import { failureText } from '../../errors/user-message.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Dialect } from '../../paperspace/dialect.js';
import { PaperspacePermissionError, type RequestIssue } from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import {
  type CreateMachineParams,
  createMachineParamsSchemaFor,
  type TemplateInfo,
} from '../../paperspace/request-params/machine-create-params.js';
import { toRequestIssues } from '../../paperspace/request-params/parse-request.js';
import type { Network, Template } from '../../paperspace/schemas.js';
import { errorMessage, plainMessage } from '../../slack/block-kit/messages.js';
import { escapeMrkdwn, type SlackMessage } from '../../slack/block-kit/text.js';
import { announce, type FollowUpPlace, withPrivateCopy } from '../../slack/posting.js';
import type { RequestReceipt } from '../../slack/request-receipt.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { FeatureDeps, ListenerWiring } from '../feature-deps.js';
import type { AccountKind } from './account-kind.js';
import { machineCardMessage } from './blocks/machine-card.js';
import { createdNotice } from './blocks/machine-replies.js';
import { passBudgetGate } from './budget-gate.js';
import { setTeamIdleTimeout } from './created-idle-timeout.js';
import { type CreateOutcome, createMachineOperations } from './machine-operations.js';
import { type CreatedOwner, recordCreatedOwner } from './machine-ownership.js';
import { notWatchedMessage, WatchLimitError } from './machine-watcher.js';

/**
 * On the contract, a team administrator must create for their team (teamId); the person never has to
 * type it, since Paperspace says which team it is. A teamId they did give is kept, so a wrong one is
 * refused by Paperspace rather than silently replaced. An individual account sends none.
 */
export function withAccountTeam(
  params: Record<string, unknown>,
  account: AccountKind,
  dialect: Dialect,
): Record<string, unknown> {
  // v1 creates in the key's own team and has no teamId field to send.
  if (dialect === 'v1' || account.kind !== 'team' || params.teamId !== undefined) return params;
  return { ...params, teamId: account.teamId };
}

const NEW_USER_FIELDS = ['email', 'password', 'firstName', 'lastName'] as const;

/**
 * A team machine on the contract is assigned to a person: without one named, to the person asking
 * (issue 45: an administrator's machine is theirs unless they name a teammate, `for=@sam` or the
 * form's picker), so nobody is asked for a Paperspace user id, and a member's create goes to
 * Paperspace at once and its refusal becomes the offer to ask an administrator (issue 26). v1 has no
 * owner to assign, and an individual account's machine is its own.
 */
function withCallerAsOwner(
  params: Record<string, unknown>,
  account: AccountKind,
  dialect: Dialect,
  caller: { userId: string } | undefined,
): Record<string, unknown> {
  const assigned = ['userId', ...NEW_USER_FIELDS].some((field) => params[field] !== undefined);
  if (dialect === 'v1' || account.kind !== 'team' || assigned || !caller) return params;
  return { ...params, userId: caller.userId };
}

/** Who asks for a create, as the create's defaults and checks need to know them. */
interface CreateAsker {
  user: SlackUser;
  /** The person's linked key: whose Paperspace user they are, when known. */
  linked: { userId: string } | undefined;
  account: AccountKind;
  dialect: Dialect;
}

/**
 * The parameters a person typed or filled in, completed as their account needs: a team machine with
 * no one named assigned to the person asking, and the account's team on the contract.
 */
export function completeCreateParams(
  asker: CreateAsker,
  params: Record<string, unknown>,
): Record<string, unknown> {
  const { account, dialect } = asker;
  return withAccountTeam(withCallerAsOwner(params, account, dialect, asker.linked), account, dialect);
}

export type CheckedCreate = { ok: true; value: CreateMachineParams } | { ok: false; issues: RequestIssue[] };

/**
 * The create parameters as the client's schema sees them (with the template's rules once the template
 * is known), plus the contract's rules on who the machine belongs to: a team machine is assigned to a
 * person on the contract (v1 has no owner), and on an individual account the caller becomes owner,
 * so assigning it is refused. The
 * schema cannot know the account's kind, so without this the person would learn it from Paperspace
 * only after the form was sent.
 */
export function checkCreateParams(
  params: Record<string, unknown>,
  account: AccountKind,
  dialect: Dialect,
  template?: TemplateInfo,
): CheckedCreate {
  const issues: RequestIssue[] = [];
  const parsed = createMachineParamsSchemaFor(template, dialect).safeParse(params);
  if (!parsed.success) issues.push(...toRequestIssues(parsed.error));
  const assignedFields = ['userId', ...NEW_USER_FIELDS].filter((field) => params[field] !== undefined);
  if (account.kind === 'individual') {
    for (const field of assignedFields) {
      issues.push({
        field,
        message: 'cannot be given on an individual account: the machine belongs to you, leave it out',
      });
    }
  } else if (assignedFields.length === 0 && dialect === 'contract') {
    // v1 has no owner to assign (userId only makes the person an accessor), so nothing is required.
    issues.push({
      field: 'userId',
      message:
        'is required for a team machine: choose the team member it is for, or give email, password, ' +
        'firstName and lastName to create one',
    });
  }
  return parsed.success && issues.length === 0 ? { ok: true, value: parsed.data } : { ok: false, issues };
}

/**
 * The cross-field rule the client's schema cannot check without a lookup: a network is in one region,
 * and a machine is created on it only in that region.
 */
export function networkIssues(
  params: { region?: unknown; networkId?: unknown },
  network: Network | undefined,
): RequestIssue[] {
  if (network === undefined || typeof params.region !== 'string' || network.region === params.region)
    return [];
  return [
    {
      field: 'networkId',
      message: `is a network in ${network.region}, not in ${params.region}: choose a network in ${params.region}, or none`,
    },
  ];
}

/**
 * Every problem of a create named in one answer, for the command and the form alike: checkCreateParams's
 * and the network's region, once the template and the network are known (each may not be).
 */
export function checkCreate(
  params: Record<string, unknown>,
  asker: Pick<CreateAsker, 'account' | 'dialect'>,
  found: { template: Template | undefined; network: Network | undefined },
): CheckedCreate {
  const checked = checkCreateParams(params, asker.account, asker.dialect, found.template);
  const regionIssues = networkIssues(params, found.network);
  if (checked.ok && regionIssues.length === 0) return checked;
  return { ok: false, issues: [...(checked.ok ? [] : checked.issues), ...regionIssues] };
}

/** The network by id, as the person's key sees it; undefined when it is not listed or none was given. */
export async function findNetwork(
  client: PaperspaceClient,
  networkId: unknown,
  options?: RequestOptions,
): Promise<Network | undefined> {
  if (typeof networkId !== 'string' || networkId.trim() === '') return undefined;
  const [network] = await client.networks.list({ id: networkId.trim() }, options);
  return network;
}

const MEMBER_CANNOT_CREATE =
  "Only your team's administrators can create machines: Paperspace refused this one for your account. " +
  'Ask an administrator to create it and assign it to you; you can then start, stop and share it from here.';

/**
 * The one place a team member's create is answered. Paperspace lets only account administrators
 * create machines, and nothing in the API says beforehand who is one, so the refusal (403) is turned
 * into the sentence a member needs. Anything else is passed on as it came.
 */
function memberCreateRefusal(error: unknown): unknown {
  return error instanceof PaperspacePermissionError
    ? new MemberCannotCreateError(MEMBER_CANNOT_CREATE)
    : error;
}

/** A team member's create, refused by Paperspace; the approvals feature turns it into a request. */
export class MemberCannotCreateError extends UserFacingError {
  override name = 'MemberCannotCreateError';
}

/** A create made, and what an administrator past a spent budget is told (undefined: nothing). */
export type PersonCreated = CreateOutcome & {
  budgetNote?: string | undefined;
  /** The team's idle timeout on the new machine, set or refused (`/ps policy idle`). */
  idleNote?: string | undefined;
};

/**
 * Creates the machine with the person's key, once it passes the budget gate (an OverBudgetError stops
 * a member whose budget is spent); a member's refusal comes back as MEMBER_CANNOT_CREATE.
 * `owner`: the teammate it is for (`for=@sam`), recorded as its owner where Paperspace names none
 * (v1); else the person creating it. `receipt`: the typed command's, ended right before the create is
 * sent (a replica lost before then leaves it, and the person hears no machine was made).
 */
export async function createForPerson(
  deps: FeatureDeps<
    'powerClaims' | 'approvals' | 'machineOwners' | 'budgets' | 'policies',
    'audit' | 'now' | 'vault'
  >,
  actor: { user: SlackUser; client: PaperspaceClient },
  params: CreateMachineParams,
  template: TemplateInfo | undefined,
  owner: CreatedOwner = actor.user,
  receipt?: RequestReceipt,
): Promise<PersonCreated> {
  const budgetNote = await passBudgetGate(deps, actor, 'create');
  await receipt?.beforeCall();
  let outcome: CreateOutcome;
  try {
    outcome = await createMachineOperations(deps).create(actor, params, template);
  } catch (error) {
    // What Paperspace said is the only sign, on the legacy API, of who may approve a team's creates.
    if (error instanceof PaperspacePermissionError) await learnRoleFromCreate(deps, actor.user, false);
    throw memberCreateRefusal(error);
  }
  await learnRoleFromCreate(deps, actor.user, true);
  await recordCreatedOwner(deps, outcome.machine.id, owner, {
    basis: 'created',
    setBy: actor.user.userId,
  });
  const idleNote = await setTeamIdleTimeout(deps, actor, outcome.machine);
  return { ...outcome, budgetNote, idleNote };
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
  deps: Pick<ListenerWiring, 'pacer' | 'watcher' | 'logger'>;
  web: WebClient;
  user: SlackUser;
  outcome: PersonCreated;
  /** The teammate the machine was made for, when not the person who made it. */
  forUserId?: string | undefined;
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
  const notice = createdNotice(user.userId, targetState !== 'off', announcement.forUserId);
  const card = machineCardMessage(machine, { notice });
  const { place, notice: placeNotice } = await announce(
    web,
    { channel: announcement.channel ?? user.userId, userId: user.userId },
    card,
    `the card of ${machine.name}`,
    announcement.deps.pacer,
  );
  const watching = await watchCreated(announcement, targetState, place);
  if (announcement.outcome.budgetNote !== undefined)
    await announcement.tell(plainMessage(announcement.outcome.budgetNote));
  if (announcement.outcome.idleNote !== undefined)
    await announcement.tell(plainMessage(announcement.outcome.idleNote));
  if (placeNotice === undefined) return;
  const followUp = watching
    ? `I am watching *${escapeMrkdwn(machine.name)}* and will tell you when it is ${targetState === 'off' ? 'provisioned (it was created off)' : 'up'}.`
    : undefined;
  await announcement.tell(
    place.ts === undefined ? withPrivateCopy(placeNotice, card, followUp) : placeNotice,
  );
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
      operation: 'create',
    });
    return true;
  } catch (error) {
    if (error instanceof WatchLimitError) {
      await announcement.tell(notWatchedMessage(machine.name, 'was created', error));
      return false;
    }
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
