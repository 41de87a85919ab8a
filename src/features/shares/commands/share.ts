// `/ps share <machine> [<machine> ...] [<@user> ...]`: offers, privately, to share them all (each must
// be visible to the sharer's key) in this channel for 4 hours once confirmed: one resource delegation
// for the channel, or, where the API has none (v1), access for the teammates mentioned.

import { z } from 'zod';
import type { Machine } from '../../../paperspace/schemas.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  readMachine,
  splitWithoutKeyValues,
} from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { MACHINE_HELP, machineParameter } from '../../machines/machine-grammar.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { offerShare } from '../share-offer.js';
import type { SharesDeps } from '../shares-deps.js';

export const shareOperation = defineOperation({
  name: 'share',
  usage: `${ps} share <machine> [<machine> ...] [<@user> ...]`,
  summary: 'Share machines in this channel for 4 hours; on Paperspace v1, with the teammates you mention.',
  help: {
    parameters: [`${MACHINE_HELP} Several may be named.`, '`@person`: on Paperspace v1, who gets access.'],
    examples: [`${ps} share gpu-1`, `${ps} share gpu-1 @sam`],
    effect:
      'Posts in this channel what you share and until when (4 hours); when it ends the access is taken back and the post says so.',
  },
  kind: 'change',
  tool: {
    name: 'share_machine',
    title: 'Share machines',
    description:
      "Shares machines for four hours with the named Slack users (their user ids, U0123ABC): on the v1 API they get access at once. Confirmed from Slackbot, the share with its Get access button is posted in the person's messages with the app; to share in a channel, use /ps share there.",
  },
  params: z.object({
    machines: z.array(machineParameter).min(1).describe('The machines to share, each named once.'),
    with: z
      .array(z.string())
      .default([])
      .describe(
        'The Slack user ids (U0123ABC) of the people who get access, where a share makes them accessors (v1).',
      ),
  }),
  read(args) {
    const split = splitWithoutKeyValues('share', args);
    if (!split.ok) return split;
    const machines: string[] = [];
    const people: string[] = [];
    for (const token of split.args.positionals) {
      if (token.slackUserId !== null) {
        if (!people.includes(token.slackUserId)) people.push(token.slackUserId);
        continue;
      }
      const machine = readMachine(token);
      if (!machine.ok) return machine;
      // Naming a machine twice shares it once.
      if (!machines.includes(machine.value)) machines.push(machine.value);
    }
    if (machines.length === 0) return fail('Missing <machine>: give one or more machine ids or names.');
    return accept({ machines, with: people });
  },
  run: share,
});

async function share(
  command: { machines: string[]; with: string[] },
  context: CommandContext,
  deps: SharesDeps,
): Promise<void> {
  const client = await context.userClient();
  if (client === undefined) return;
  const machines = new Map<string, Machine>();
  for (const reference of command.machines) {
    const machine = await findMachine(client, reference);
    machines.set(machine.id, machine);
  }
  const [first, ...rest] = machines.values();
  // The grammar asks for at least one machine, and each one was found or threw.
  if (first === undefined) return;
  await offerShare(context, deps, [first, ...rest], command.with);
}
