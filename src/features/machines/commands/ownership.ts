// /ps claim <machine> and /ps assign <machine> @person: whose a machine is, where Paperspace does not
// say (v1). A member claims a team machine with no owner yet; an administrator of the team assigns or
// reassigns one. The rules and the telling are machine-ownership.ts's.
import { z } from 'zod';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import {
  accept,
  fail,
  readMachine,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { MACHINE_HELP, machineParameter, readOneMachine } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import { assignMachine, claimMachine } from '../machine-ownership.js';
import type { MachinesDeps } from '../machines-deps.js';

export const claimOperation = defineOperation({
  name: 'claim',
  usage: `${ps} claim <machine>`,
  summary: 'Say a team machine with no owner yet is yours.',
  help: {
    parameters: [MACHINE_HELP],
    examples: [`${ps} claim sam-cad`],
    effect:
      'Makes you the owner of a machine nobody owns yet: its forgotten-machine alerts come to you and its ' +
      'cost counts in your spend. A machine someone owns stays theirs.',
  },
  kind: 'change',
  params: z.object({ machine: machineParameter }),
  read(args) {
    const read = readOneMachine('claim', args);
    return read.ok ? accept({ machine: read.value.machine }) : read;
  },
  async run(command, context, deps: MachinesDeps) {
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    await context.replyPrivately(
      plainMessage(await claimMachine(deps, { user: context.user, client }, machine)),
    );
  },
});

export const assignOperation = defineOperation({
  name: 'assign',
  usage: `${ps} assign <machine> @person`,
  summary: 'Give a team machine to a teammate (team administrators).',
  help: {
    parameters: [MACHINE_HELP, '`@person`: the teammate who is to own it, picked from Slack’s @ list.'],
    examples: [`${ps} assign team-build @sam`],
    effect:
      'Makes the teammate the machine’s owner, replacing whoever had it: its alerts go to them and its cost ' +
      'counts in their spend. They and the previous owner are told.',
  },
  kind: 'change',
  params: z.object({
    machine: machineParameter,
    owner: z
      .string()
      .regex(/^[UW][A-Z0-9]+$/)
      .describe('The Slack user id of the teammate who is to own it.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('assign', args);
    if (!split.ok) return split;
    const [machineToken, personToken] = split.args.positionals;
    const machine = readMachine(machineToken);
    if (!machine.ok) return machine;
    if (personToken === undefined) return fail('Missing @person: mention the teammate who is to own it.');
    if (personToken.slackUserId === null) {
      return fail(
        `Cannot tell who ${echo(personToken.text)} is: pick the person from Slack's @ list so the mention is sent as a link.`,
      );
    }
    const extra = tooMany('assign', split.args.positionals, 2, 'one <machine> and one @person');
    return extra ?? accept({ machine: machine.value, owner: personToken.slackUserId });
  },
  async run(command, context, deps: MachinesDeps) {
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    const said = await assignMachine(deps, { user: context.user, client, web: context.web }, machine, {
      teamId: context.user.teamId,
      userId: command.owner,
    });
    await context.replyPrivately(plainMessage(said));
  },
});
