// Opening a request: it is stored, posted to whoever may decide it (a create to the team's approvals
// channel or, without one, to each linked administrator's DM; a power request to the DM of the owner
// by the owner rule, or to the approvals channel when the owner Paperspace names has not linked a key,
// or to the administrators' DMs for a machine with no owner yet; see approvers.ts for who is asked),
// and the requester gets a receipt with Withdraw in their DM. Every request is audited with its
// requester.
import type { WebClient } from '@slack/web-api';
import { estimatedHourlyRate, type HourlyRate, listPriceRate } from '../../domain/hourly-rate.js';
import { machineOwner } from '../../domain/machine-owner.js';
import { linkedPeopleOf, paperspaceNameOf } from '../../domain/machine-people.js';
import { describeError } from '../../errors/describe-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { plainMessage } from '../../slack/block-kit/messages.js';
import type { SlackMessage } from '../../slack/block-kit/text.js';
import { mention } from '../../slack/block-kit/text.js';
import { postIn } from '../../slack/posting.js';
import type { OverBudget } from '../../store/approval-request-details.js';
import type { NewApprovalRequest, ReadableRequest } from '../../store/approval-requests.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { LinkedAccount } from '../../vault/key-vault.js';
import type { FeatureDeps } from '../feature-deps.js';
import { withoutNewUserFields } from '../machines/blocks/request-values.js';
import { findTemplate } from '../machines/create-flow.js';
import type { PowerVerb } from '../machines/machine-operations.js';
import { createApprovers } from './approvers.js';
import { approverMessage, receiptMessage } from './blocks/request-messages.js';

export const DEFAULT_REQUEST_LIFETIME_MS = 24 * 3_600_000;

/** What opening a request uses, which every feature that opens one declares. */
type RequestDeps = FeatureDeps<'approvals' | 'vaultEntries', 'vault' | 'audit' | 'now'>;

/** A power request also asks whose the machine is. */
type PowerRequestDeps = RequestDeps & FeatureDeps<'machineOwners'>;

export interface Requester {
  deps: RequestDeps;
  web: WebClient;
  user: SlackUser;
  client: PaperspaceClient;
  /** Where they asked; their answers go there. */
  channel: string | undefined;
  tell: (message: SlackMessage) => Promise<void>;
}

/** What a create request carries beyond its parameters when a Workflow Builder step opens it. */
export interface CreateRequestOrigin {
  /** The step's run, ended when the request is decided (approvals/request-settled.ts). */
  functionExecutionId: string;
  /** Why the requester wants the machine, shown to the approvers; null when not given. */
  reason: string | null;
}

/** The open request; undefined when none could be opened (the requester was told why). */
export async function openCreateRequest(
  requester: Requester,
  account: LinkedAccount,
  params: Record<string, unknown>,
  origin?: CreateRequestOrigin,
  /** The budget the gate found spent, when that (not Paperspace) is why the create is asked for. */
  overBudget?: OverBudget,
): Promise<ReadableRequest | undefined> {
  const { deps, user } = requester;
  const teamId = account.teamId;
  if (!teamId) {
    await requester.tell(
      plainMessage('Your Paperspace account is not a team account: there is no administrator to ask.'),
    );
    return undefined;
  }
  const settings = await deps.store.approvals.settingsOf(user.teamId, teamId);
  const chosen = settings?.channel
    ? undefined
    : await createApprovers(deps, { user, client: requester.client }, teamId);
  if (chosen && chosen.approvers.length === 0) {
    const who =
      chosen.basis === 'listed'
        ? 'None of the administrators Paperspace lists for your team has linked a key here yet'
        : 'No teammate who could be an administrator of your Paperspace team has linked a key here yet';
    await requester.tell(
      plainMessage(
        `${who}, so there is no one I can ask. ` +
          'Ask an administrator to run `/ps login`, or to set an approvals channel with `/ps approvals #channel`.',
      ),
    );
    return undefined;
  }
  const request = {
    ...withoutNewUserFields(params),
    // The contract creates for a team by its id; v1 creates in the approver key's own team and refuses
    // a teamId field.
    ...(requester.client.dialect === 'v1' ? {} : { teamId }),
    // The contract's userId: the machine is created for the requester, not for whoever approves.
    userId: account.userId,
  };
  const [hourlyRate, templateLabel] = await Promise.all([
    rateOrNull(requester, String(params.machineType ?? '')),
    templateLabelOrNone(requester, params.templateId),
  ]);
  const approvers = chosen?.approvers ?? [];
  const targets = settings?.channel ? [settings.channel] : approvers.map((approver) => approver.userId);
  const asked = settings?.channel
    ? `<#${settings.channel}>`
    : approvers.map((a) => mention(a.userId)).join(', ');
  return openRequestTo(requester, targets, asked, settings?.lifetimeMs ?? null, {
    kind: 'create',
    paperspaceTeamId: teamId,
    machineId: null,
    machineName: typeof params.machineName === 'string' ? params.machineName : null,
    ownerId: null,
    ...(origin ? { functionExecutionId: origin.functionExecutionId } : {}),
    details: {
      params: request,
      hourlyRate: hourlyRate?.dollars ?? null,
      ...(hourlyRate ? { hourlyRateBasis: hourlyRate.basis } : {}),
      ...(templateLabel ? { templateLabel } : {}),
      ...(origin?.reason ? { reason: origin.reason } : {}),
      ...(overBudget ? { overBudget } : {}),
      ...(chosen ? { approverBasis: chosen.basis, approvers: targets } : {}),
    },
  });
}

export async function openPowerRequest(
  requester: Requester & { deps: PowerRequestDeps },
  machineId: string,
  verb: PowerVerb,
): Promise<void> {
  const { deps, user } = requester;
  const machine = await requester.client.machines.show(machineId);
  const account = await deps.vault.account(user);
  const paperspaceTeamId = account?.teamId ?? null;
  const settings = paperspaceTeamId
    ? await deps.store.approvals.settingsOf(user.teamId, paperspaceTeamId)
    : undefined;
  const lifetimeMs = settings?.lifetimeMs ?? null;
  const what = { kind: verb, paperspaceTeamId, machineId: machine.id, machineName: machine.name };
  const owner = await machineOwner(deps.store, user.teamId, machine);
  if (owner.kind === 'recorded' && owner.userId !== user.userId) {
    // v1: the person the bot recorded decides, with their own key.
    await openRequestTo(requester, [owner.userId], mention(owner.userId), lifetimeMs, {
      ...what,
      ownerId: owner.userId,
      details: owner.paperspaceUserId === null ? {} : { ownerPaperspaceId: owner.paperspaceUserId },
    });
    return;
  }
  if (owner.kind !== 'paperspace') {
    await openToAdministrators(requester, machine.name, paperspaceTeamId, lifetimeMs, what);
    return;
  }
  const ownerPaperspaceId = owner.paperspaceUserId;
  const owners = await linkedPeopleOf(deps.store, user.teamId, ownerPaperspaceId);
  const [linkedOwner] = owners;
  if (!linkedOwner) {
    const ownerName = await paperspaceNameOf(requester.client, ownerPaperspaceId);
    if (!settings?.channel) {
      await requester.tell(plainMessage(ownerNotLinkedText(machine.name, ownerName)));
      return;
    }
    // The request waits in the approvals channel, where the owner can approve it once they link a key.
    await openRequestTo(requester, [settings.channel], `<#${settings.channel}>`, lifetimeMs, {
      ...what,
      ownerId: null,
      details: { ownerPaperspaceId, ownerName },
    });
    return;
  }
  const targets = owners.map((person) => person.userId);
  await openRequestTo(requester, targets, targets.map(mention).join(', '), lifetimeMs, {
    ...what,
    ownerId: linkedOwner.userId,
    details: { ownerPaperspaceId },
  });
}

/**
 * A machine with no owner yet (or the requester's own by the bot's record, which Paperspace still
 * refused them): its team's administrators answer for it, and Paperspace judges whose approval goes
 * through.
 */
async function openToAdministrators(
  requester: Requester,
  machineName: string,
  paperspaceTeamId: string | null,
  lifetimeMs: number | null,
  what: Pick<NewApprovalRequest, 'kind' | 'paperspaceTeamId' | 'machineId' | 'machineName'>,
): Promise<void> {
  const { approvers } = paperspaceTeamId
    ? await createApprovers(requester.deps, requester, paperspaceTeamId)
    : { approvers: [] };
  if (approvers.length === 0) {
    await requester.tell(
      plainMessage(
        `${machineName} has no owner yet, and none of your team's administrators has linked a key here, so there is no one I can ask.`,
      ),
    );
    return;
  }
  const targets = approvers.map((person) => person.userId);
  await openRequestTo(requester, targets, targets.map(mention).join(', '), lifetimeMs, {
    ...what,
    ownerId: null,
    details: { ownerUnknown: true, approvers: targets },
  });
}

/** Said when the owner of a machine has not linked a key, and no approvals channel is set. */
function ownerNotLinkedText(machineName: string, ownerName: string): string {
  return (
    `The owner of ${machineName}, ${ownerName}, has not linked a Paperspace key here, so I cannot ask them. ` +
    'Ask them to run `/ps login`, or ask an administrator to set an approvals channel with `/ps approvals #channel`, where such requests wait for the owner.'
  );
}

export async function openRequestTo(
  requester: Requester,
  targets: string[],
  asked: string,
  lifetimeMs: number | null,
  what: Omit<NewApprovalRequest, 'teamId' | 'requesterId' | 'channel' | 'createdAt' | 'expiresAt'>,
): Promise<ReadableRequest | undefined> {
  const { deps, web, user } = requester;
  const now = deps.now();
  const request = await deps.audit.run(
    {
      user,
      action: 'approval.request',
      note: `${what.kind} ${what.machineName ?? ''} asked of ${asked}`.trim(),
    },
    () =>
      deps.store.approvals.create({
        ...what,
        teamId: user.teamId,
        requesterId: user.userId,
        channel: requester.channel ?? null,
        details: { ...what.details, asked },
        createdAt: now,
        expiresAt: now + (lifetimeMs ?? DEFAULT_REQUEST_LIFETIME_MS),
      }),
    (created) => created.id,
  );
  let delivered = 0;
  for (const target of targets) {
    try {
      const posted = await postIn(web, { channel: target }, approverMessage(request), deps.pacer);
      await deps.store.approvals.addMessage(request.id, { ...posted, to: 'approver' });
      delivered += 1;
    } catch (error) {
      deps.logger.warn({ error: describeError(error), target }, 'could not post a request to an approver');
    }
  }
  if (delivered === 0) {
    await deps.store.approvals.decide(request.id, {
      status: 'failed',
      by: user.userId,
      at: now,
      reason: 'undeliverable',
    });
    await requester.tell(
      plainMessage(`I could not deliver your request to ${asked}; nothing was sent. Try again later.`),
    );
    return undefined;
  }
  const receipt = await postIn(web, { channel: user.userId }, receiptMessage(request, asked), deps.pacer);
  await deps.store.approvals.addMessage(request.id, { ...receipt, to: 'requester' });
  // Said where they asked even in our DM, where the receipt follows: there it replaces the
  // "Sending your request…" their click left, which otherwise stayed as if nothing had been sent.
  await requester.tell(
    plainMessage(`📨 Request sent to ${asked}. I will tell you in our direct messages when it is decided.`),
  );
  return request;
}

/** The template's label, so the approver reads a name, not an id; none when it cannot be listed. */
async function templateLabelOrNone(requester: Requester, templateId: unknown): Promise<string | undefined> {
  try {
    const template = await findTemplate(requester.client, templateId);
    return template?.label ?? template?.name ?? undefined;
  } catch (error) {
    requester.deps.logger.info({ error: describeError(error) }, 'could not read the template of a request');
    return undefined;
  }
}

/**
 * The rate of a machine of this type in the requester's account (their key lists their team's
 * machines), else its published list price: a type nobody in the team has yet still shows a price.
 */
async function rateOrNull(requester: Requester, machineType: string): Promise<HourlyRate | null> {
  try {
    return await estimatedHourlyRate(requester.client, machineType, requester.deps.now());
  } catch (error) {
    requester.deps.logger.info(
      { error: describeError(error) },
      'could not estimate the hourly rate of a request',
    );
    return listPriceRate(machineType) ?? null;
  }
}
