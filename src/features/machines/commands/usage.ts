// /ps usage <machine> [YYYY-MM]: hours and cost for a billing month (this UTC month by default).

import { z } from 'zod';
import {
  accept,
  readMachine,
  readOptionalMonth,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import { BILLING_MONTH_PATTERN } from '../../../slack/command-language/command-values.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { usageMessage } from '../blocks/usage.js';
import { MACHINE_HELP, machineParameter } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';

export const usageOperation = defineOperation({
  name: 'usage',
  usage: `${ps} usage <machine> [YYYY-MM]`,
  summary: 'Show hours used and cost of a machine for a month (default: this month).',
  help: {
    parameters: [MACHINE_HELP, '`YYYY-MM`: a past billing month (default: this one).'],
    examples: [`${ps} usage gpu-1`, `${ps} usage gpu-1 2024-04`],
    effect: 'Answers only you with its hours and cost for the month: compute and storage, and their sum.',
  },
  kind: 'read',
  tool: {
    name: 'machine_usage',
    title: 'Usage of a machine',
    description: 'Shows how many hours a machine ran in a billing month and what they cost.',
    idempotent: true,
  },
  params: z.object({
    machine: machineParameter,
    // null: the current billing month (the service knows the clock and the person's time zone).
    month: z
      .string()
      .regex(BILLING_MONTH_PATTERN)
      .nullable()
      .default(null)
      .describe('The billing month as YYYY-MM, or null for the current month.'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('usage', args);
    if (!split.ok) return split;
    const [machineToken, monthToken] = split.args.positionals;
    const machine = readMachine(machineToken);
    if (!machine.ok) return machine;
    const month = readOptionalMonth(monthToken);
    if (!month.ok) return month;
    const extra = tooMany('usage', split.args.positionals, 2, '<machine> and an optional YYYY-MM');
    return extra ?? accept({ machine: machine.value, month: month.value });
  },
  async run(command, context, deps: MachinesDeps) {
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    const utilization = await createMachineOperations(deps).usage(
      { user: context.user, client },
      machine.id,
      command.month,
    );
    const estimated = client.capabilities.utilization === 'estimated';
    await context.replyPrivately(usageMessage(machine.name, utilization, deps.now(), estimated));
  },
});
