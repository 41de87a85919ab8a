// /ps create: with no arguments, the create form (opened as "Loading…" at once, filled when the
// account's templates, networks, scripts and users are listed: a team's users to assign the machine
// to); with key=value pairs, the machine is created straight away after the same checks the form gets.

import { z } from 'zod';
import { knownHourlyRates } from '../../../domain/hourly-rate.js';
import { createMachineParamsSchema } from '../../../paperspace/request-params/machine-create-params.js';
import { usageErrorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  type KeyValues,
  normalizedKeyValues,
  readKeyValues,
  splitArguments,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import type { Token } from '../../../slack/command-language/tokenize.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { openLoadingModal } from '../../../slack/loading-modal.js';
import { defineOperation } from '../../../slack/operation.js';
import { readAccountKind } from '../account-kind.js';
import { createMachineModal } from '../blocks/create-machine-modal.js';
import * as createFlow from '../create-flow.js';
import { ownerOf, withRecipient } from '../create-recipient.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { OwnerRequests } from '../machines-wiring.js';
import { receiveRequest } from '../request-receipts.js';
import { describeIssues, typedKeyValues } from '../typed-key-values.js';

const USAGE = `${ps} create [key=value ...]`;

export function createOperation(requests: OwnerRequests) {
  return defineOperation({
    name: 'create',
    usage: USAGE,
    summary:
      'Create a machine: a form, or inline parameters (machineName=... region=CA1 machineType=C4 ...). ' +
      `Machine types: with API v1, those the template offers (${ps} templates lists them).`,
    help: {
      parameters: [
        'Nothing: a form with every choice (template, type with its GPU and price, region, disk).',
        '`machineName=… region=CA1 machineType=P4000 templateId=… size=50`: inline, the same fields.',
        '`for=@sam`: on a team, the teammate it is for (found in your Paperspace team by the e-mail on their Slack profile); without it, it is yours.',
      ],
      examples: [
        `${ps} create`,
        `${ps} create machineName=train-1 region=CA1 machineType=P4000 templateId=tmun4o2g`,
        `${ps} create machineName=sam-1 region=NY2 machineType=C4 templateId=t04azgph size=50 for=@sam`,
      ],
      effect:
        "Creates the machine with your key and posts its card. A team member's create becomes a request to the team's administrators, sent at once with one click.",
    },
    kind: 'change',
    tool: {
      name: 'request_machine',
      title: 'Request a machine',
      description:
        "Asks for a new Paperspace machine: a team member's request goes to the team's administrators for approval; an administrator's creates it. Give machineName, region, machineType, templateId and size (and for, a teammate's mention <@U…>, when a team machine is not for you), or nothing to fill in the form in Slack.",
    },
    params: z.object({
      // Typed and checked against the client's create schema when it runs, so a bad value is named with its key.
      params: z
        .record(z.string(), z.string())
        .nullable()
        .default(null)
        .describe(
          'The machine to create (machineName, region, machineType, templateId, size, ...), or null for the form.',
        )
        .transform((values) => (values === null ? null : normalizedKeyValues(values))),
    }),
    read(args) {
      if (args.length === 0) return accept({ params: null });
      const split = splitArguments('create', args);
      if (!split.ok) return split;
      const [positional] = split.args.positionals;
      if (positional !== undefined) {
        return fail(
          `Expected key=value, got ${echo(positional.text)}: create takes parameters such as machineName="My machine".`,
        );
      }
      const params = readKeyValues('create', split.args.keyValues, null, 'key');
      return params.ok ? accept({ params: withMentions(params.value, split.args.keyValues) }) : params;
    },
    // An inline create is acked before its checks: a replica lost before the create is sent leaves this
    // receipt, and the person still hears that no machine was made. The form is acked by its modal.
    receive: (command, asker, deps: MachinesDeps) =>
      command.params === null
        ? undefined
        : receiveRequest(deps, asker, { operation: 'create', subject: machineNameOf(command.params) }),
    async run(command, context, deps: MachinesDeps) {
      if (command.params === null) await openCreateModal(context, deps);
      else await createInline(command.params, context, deps, requests);
    },
  });
}

/** The machine's name as typed, for the receipt (any case of the key, as the checks take it). */
function machineNameOf(values: KeyValues): string {
  const entry = Object.entries(values).find(([key]) => key.toLowerCase() === 'machinename');
  return entry?.[1] ?? 'a new machine';
}

/** Keys whose value may be a person: a mention is kept as the person, not the name Slack shows. */
const PERSON_KEYS = ['for', 'userid'];

function withMentions(values: KeyValues, tokens: readonly Token[]): KeyValues {
  const mentioned = { ...values };
  for (const token of tokens) {
    const key = token.text.slice(0, token.equalsAt);
    if (token.valueSlackUserId !== undefined && PERSON_KEYS.includes(key.toLowerCase())) {
      mentioned[key] = `<@${token.valueSlackUserId}>`;
    }
  }
  return mentioned;
}

/** `for=` apart from the create's own parameters: it names a person, not a Paperspace field. */
function takeFor(values: KeyValues): { named: string | undefined; rest: KeyValues } {
  const rest: KeyValues = {};
  let named: string | undefined;
  for (const [key, value] of Object.entries(values)) {
    if (key.toLowerCase() === 'for') named = value;
    else rest[key] = value;
  }
  return { named, rest };
}

async function openCreateModal(context: CommandContext, deps: MachinesDeps): Promise<void> {
  const client = await context.userClient();
  if (!client) return;
  await openLoadingModal(context, {
    title: 'Create machine',
    loading: 'Loading templates, networks, scripts and users…',
    build: async () => {
      const [templates, networks, scripts, { account, users }, hourlyRates] = await Promise.all([
        client.templates.list(),
        client.networks.list(),
        client.scripts.list(),
        readAccountKind(client),
        // Prices are a help, not a need: without them the form still opens, without prices.
        knownHourlyRates(client, deps.now()).catch(() => new Map<string, number>()),
      ]);
      const isTeam = account.kind === 'team';
      return createMachineModal({
        templates,
        networks,
        scripts,
        users: isTeam ? users : [],
        isTeam,
        hourlyRates,
        dialect: client.dialect,
        context: { channelId: context.channelId },
      });
    },
  });
}

async function createInline(
  values: KeyValues,
  context: CommandContext,
  deps: MachinesDeps,
  requests: OwnerRequests,
): Promise<void> {
  const refuse = (error: string) => context.replyPrivately(usageErrorMessage(error, USAGE));
  const { named, rest } = takeFor(values);
  const typed = typedKeyValues(rest, createMachineParamsSchema, 'create');
  if (!typed.ok) return refuse(typed.error);
  const client = await context.userClient();
  if (!client) return;
  // Whether the machine must be assigned (a team) or must not be (an individual account) is read from
  // Paperspace, with the template whose OS rules apply and the team's users a person named is found
  // among; then every problem is named in one answer.
  const [{ account, users }, template, network, linked] = await Promise.all([
    readAccountKind(client),
    createFlow.findTemplate(client, typed.value.templateId),
    createFlow.findNetwork(client, typed.value.networkId),
    deps.vault.account(context.user),
  ]);
  const asker = { user: context.user, linked, account, dialect: client.dialect };
  const forWhom = await withRecipient(
    { request: { ...context, logger: context.deps.logger }, deps, teamUsers: users },
    { account, dialect: client.dialect, paperspaceUserId: linked?.userId },
    named,
    typed.value,
  );
  const params = forWhom.ok ? forWhom.params : typed.value;
  const checked = createFlow.checkCreate(createFlow.completeCreateParams(asker, params), asker, {
    template,
    network,
  });
  if (!forWhom.ok) {
    return refuse(checked.ok ? forWhom.problem : `${forWhom.problem} ${describeIssues(checked.issues)}`);
  }
  if (!checked.ok) return refuse(describeIssues(checked.issues));

  const owner = ownerOf(context.user, forWhom.recipient);
  let outcome: createFlow.PersonCreated;
  try {
    outcome = await createFlow.createForPerson(
      deps,
      { user: context.user, client },
      checked.value,
      template,
      owner,
      context.receipt,
    );
  } catch (error) {
    // A team member, or a spent budget: the approvals feature asks the administrators instead.
    const requester = {
      deps,
      web: context.web,
      user: context.user,
      client,
      channel: context.channelId,
      tell: context.replyPrivately,
    };
    if (await requests.offerCreateRequest(error, checked.value, requester)) return;
    throw error;
  }
  await createFlow.announceCreated({
    deps: deps,
    web: context.web,
    user: context.user,
    outcome,
    forUserId: owner.userId === context.user.userId ? undefined : owner.userId,
    channel: context.channelId,
    tell: context.replyPrivately,
  });
}
