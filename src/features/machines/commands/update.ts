// /ps update <machine> key=value ...: typed and checked against the client's update schema before any
// call, so a bad value is named with its key; the confirmation carries the refreshed card.

import { z } from 'zod';
import { failureText } from '../../../errors/user-message.js';
import { updateMachineParamsSchema } from '../../../paperspace/request-params/machine-params.js';
import { usageErrorMessage } from '../../../slack/block-kit/messages.js';
import {
  accept,
  fail,
  readKeyValues,
  readMachine,
  splitArguments,
} from '../../../slack/command-language/command-arguments.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { updatedMessage, updatedUnreadMessage } from '../blocks/machine-replies.js';
import { MACHINE_HELP, machineParameter } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import { createMachineOperations } from '../machine-operations.js';
import type { MachinesDeps } from '../machines-deps.js';
import { typedKeyValues, validateKeyValues } from '../typed-key-values.js';

const USAGE = `${ps} update <machine> key=value ...`;

export const updateOperation = defineOperation({
  name: 'update',
  usage: USAGE,
  summary: 'Change machine settings (machineName, shutdownTimeoutInHours, dynamicPublicIp, ...).',
  help: {
    parameters: [
      MACHINE_HELP,
      '`machineName=…`, `shutdownTimeoutInHours=…`, `dynamicPublicIp=true`, …: what to change.',
    ],
    examples: [`${ps} update gpu-1 shutdownTimeoutInHours=4`],
    effect: 'Changes those settings with your key and shows the card again.',
  },
  kind: 'change',
  params: z.object({
    machine: machineParameter,
    // Typed and checked against the client's update schema when it runs, so a bad value is named with its key.
    params: z.record(z.string(), z.string()).describe('The settings to change, by name, as text.'),
  }),
  read(args) {
    const split = splitArguments('update', args);
    if (!split.ok) return split;
    const machine = readMachine(split.args.positionals[0]);
    if (!machine.ok) return machine;
    const extra = split.args.positionals[1];
    if (extra !== undefined) {
      return fail(`Expected key=value, got ${echo(extra.text)}: quote a machine name with spaces.`);
    }
    if (split.args.keyValues.length === 0) {
      return fail('Missing key=value: say what to change, for example shutdownTimeoutInHours=2.');
    }
    const params = readKeyValues('update', split.args.keyValues, null, 'key');
    if (!params.ok) return params;
    return accept({ machine: machine.value, params: params.value });
  },
  async run(command, context, deps: MachinesDeps) {
    const typed = typedKeyValues(command.params, updateMachineParamsSchema, 'update');
    const params = typed.ok ? validateKeyValues(updateMachineParamsSchema, typed.value) : typed;
    if (!params.ok) {
      await context.replyPrivately(usageErrorMessage(params.error, USAGE));
      return;
    }
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    const updated = await createMachineOperations(deps).update(
      { user: context.user, client },
      machine.id,
      params.value,
    );
    const changed = Object.keys(params.value);
    await context.replyPrivately(
      updated.machine === undefined
        ? updatedUnreadMessage(
            params.value.machineName ?? machine.name,
            changed,
            failureText(updated.rereadError, context.deps.logger),
          )
        : updatedMessage(updated.machine, changed),
    );
  },
});
