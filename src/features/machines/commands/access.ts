// /ps access <machine> grant|revoke <@user|userId>: a mention is mapped to the person's Paperspace user
// through their linked key; the change is audited and confirmed to the asker.

import { z } from 'zod';
import {
  accept,
  fail,
  type Read,
  readMachine,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import type { Token } from '../../../slack/command-language/tokenize.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { resolveAccessTarget } from '../access-target.js';
import { accessChangedMessage, accessUserNotLinkedMessage } from '../blocks/machine-replies.js';
import { MACHINE_HELP, machineParameter } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';

/** Who `access` grants to or revokes from: a Slack mention (resolved later) or a Paperspace user id. */
type AccessUser = { kind: 'slack'; slackUserId: string } | { kind: 'paperspace'; userId: string };

const PAPERSPACE_USER_ID = /^[A-Za-z0-9_-]+$/;

function readAccessUser(token: Token | undefined): Read<AccessUser> {
  if (token === undefined)
    return fail('Missing <@user|userId>: mention the person or give their Paperspace user id.');
  if (token.slackUserId !== null) return accept({ kind: 'slack', slackUserId: token.slackUserId });
  const typed = token.text.trim();
  if (typed.startsWith('@')) {
    return fail(
      `Cannot tell who ${echo(typed)} is: pick the person from Slack's @ list so the mention is sent as a link, or give their Paperspace user id.`,
    );
  }
  if (!PAPERSPACE_USER_ID.test(typed)) {
    return fail(
      `Invalid <@user|userId> ${echo(typed)}: mention the person or give their Paperspace user id.`,
    );
  }
  return accept({ kind: 'paperspace', userId: typed });
}

export const accessOperation = defineOperation({
  name: 'access',
  usage: `${ps} access <machine> grant|revoke <@user|userId>`,
  summary: 'Give a person access to a machine, or take it away.',
  help: {
    parameters: [MACHINE_HELP, '`grant` or `revoke`', '`@person` (or a Paperspace user id): who.'],
    examples: [`${ps} access gpu-1 grant @sam`, `${ps} access gpu-1 revoke @sam`],
    effect: 'Gives that person access to the machine in Paperspace, or takes it away, with your key.',
  },
  kind: 'change',
  params: z.object({
    machine: machineParameter,
    action: z.enum(['grant', 'revoke']).describe('Give access, or take it away.'),
    user: z
      .discriminatedUnion('kind', [
        z.object({ kind: z.literal('slack'), slackUserId: z.string().min(1) }),
        z.object({ kind: z.literal('paperspace'), userId: z.string().regex(PAPERSPACE_USER_ID) }),
      ])
      .describe('Who: a Slack user (their linked Paperspace account) or a Paperspace user id.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('access', args);
    if (!split.ok) return split;
    const [machineToken, actionToken, userToken] = split.args.positionals;
    const machine = readMachine(machineToken);
    if (!machine.ok) return machine;
    if (actionToken === undefined) return fail('Missing grant or revoke after <machine>.');
    const action = actionToken.text.toLowerCase();
    if (action !== 'grant' && action !== 'revoke') {
      return fail(`Invalid action ${echo(actionToken.text)}: use grant or revoke.`);
    }
    const user = readAccessUser(userToken);
    if (!user.ok) return user;
    const extra = tooMany('access', split.args.positionals, 3, '<machine>, grant or revoke, and one person');
    return extra ?? accept({ machine: machine.value, action, user: user.value });
  },
  async run(command, context, deps: MachinesDeps) {
    const { user } = context;
    const who =
      command.user.kind === 'slack'
        ? { slackUserId: command.user.slackUserId }
        : { paperspaceUserId: command.user.userId };
    // Checked before any Paperspace call: an unlinked person cannot be named, whatever the machine.
    const target = await resolveAccessTarget(deps.vault, user.teamId, who);
    if (!target.ok) {
      await context.replyPrivately(accessUserNotLinkedMessage(target.slackUserId));
      return;
    }
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    const enableAccess = command.action === 'grant';
    await createMachineOperations(deps).setAccess({ user, client }, machine.id, {
      paperspaceUserId: target.paperspaceUserId,
      enableAccess,
    });
    await context.replyPrivately(accessChangedMessage(machine.name, target, enableAccess));
  },
});
