// /ps create: with no arguments, the create form (opened as "Loading…" at once, filled when the
// account's templates, networks, scripts and, for a team, users are listed); with key=value pairs, the
// machine is created straight away after the same checks the form gets.
import { createMachineParamsSchema } from '../../../paperspace/requests.js';
import { usageErrorMessage } from '../../../slack/block-kit/messages.js';
import type { CommandContext, CommandHandler } from '../../../slack/command-context.js';
import { type KeyValues, usageOf } from '../../../slack/command-language/command-grammar.js';
import { openModalWhileLoading } from '../../../slack/modal-loading.js';
import { offerCreateRequest } from '../../approvals/create-route.js';
import { createMachineModal } from '../blocks/create-machine-modal.js';
import { announceCreated, checkCreateParams, findTemplate, withAccountTeam } from '../create-flow.js';
import { type CreateOutcome, createMachineOperations } from '../machine-operations.js';
import { describeIssues, typedKeyValues } from '../typed-key-values.js';

export const createMachine: CommandHandler<'create'> = async (command, context) => {
  if (command.params === null) await openCreateModal(context);
  else await createInline(command.params, context);
};

async function openCreateModal(context: CommandContext): Promise<void> {
  const client = await context.userClient();
  if (!client) return;
  const account = await context.deps.vault.account(context.user);
  const isTeam = Boolean(account?.teamId);
  await openModalWhileLoading({
    web: context.web,
    triggerId: context.triggerId,
    logger: context.deps.logger,
    title: 'Create machine',
    loading: `Loading templates, networks, scripts${isTeam ? ' and team users' : ''}…`,
    build: async () => {
      const [templates, networks, scripts, users] = await Promise.all([
        client.templates.list(),
        client.networks.list(),
        client.scripts.list(),
        isTeam ? client.users.list() : Promise.resolve([]),
      ]);
      return createMachineModal({
        templates,
        networks,
        scripts,
        users,
        isTeam,
        context: { channelId: context.channelId },
      });
    },
  });
}

async function createInline(values: KeyValues, context: CommandContext): Promise<void> {
  const refuse = (error: string) => context.replyPrivately(usageErrorMessage(error, usageOf('create')));
  const typed = typedKeyValues(values, createMachineParamsSchema, 'create');
  if (!typed.ok) return refuse(typed.error);
  const account = await context.deps.vault.account(context.user);
  const params = withAccountTeam(typed.value, account);
  // Everything but the template's OS rules is checked before any Paperspace call.
  const basic = checkCreateParams(params, account);
  if (!basic.ok) return refuse(describeIssues(basic.issues));
  const client = await context.userClient();
  if (!client) return;
  const template = await findTemplate(client, basic.value.templateId);
  const checked = checkCreateParams(params, account, template);
  if (!checked.ok) return refuse(describeIssues(checked.issues));

  let outcome: CreateOutcome;
  try {
    outcome = await createMachineOperations(context.deps).create(
      { user: context.user, client },
      checked.value,
      template,
    );
  } catch (error) {
    // A team member: Paperspace refuses, and the approvals feature offers to ask an administrator.
    if (await offerCreateRequest(error, account, checked.value, context.replyPrivately)) return;
    throw error;
  }
  await announceCreated({
    deps: context.deps,
    web: context.web,
    user: context.user,
    outcome,
    channel: context.channelId,
    tell: context.replyPrivately,
  });
}
