// /ps start|stop|restart <machine> [--no-wait]: find the machine with the typist's key, then the shared
// power flow posts the card in this channel and watches it; someone else's machine goes to its owner.
import { z } from 'zod';
import { accept, type OptionSpec } from '../../../slack/command-language/command-arguments.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation, type OperationTool } from '../../../slack/operation.js';
import { MACHINE_HELP, machineParameter, readOneMachine } from '../machine-grammar.js';
import { findMachine } from '../machine-lookup.js';
import type { MachinesDeps } from '../machines-deps.js';
import type { OwnerRequests } from '../machines-wiring.js';
import { requestPower } from '../power-request.js';
import { receiveRequest } from '../request-receipts.js';

type PowerVerb = 'start' | 'stop' | 'restart';

const NO_WAIT: OptionSpec = { name: '--no-wait', takesValue: false };
const NO_WAIT_HELP = '`--no-wait`: do not follow it; nothing more is posted.';

const WORDS = {
  start: {
    summary: 'Start a machine and post here when it is ready (--no-wait: do not watch it).',
    examples: [`${ps} start gpu-1`, `${ps} start gpu-1 --no-wait`],
    effect:
      "Starts it with your key and posts its card here; the card follows it, and the thread says when it is ready. Someone else's machine: you are offered to ask its owner.",
  },
  stop: {
    summary: 'Stop a machine and post here when it is off (--no-wait: do not watch it).',
    examples: [`${ps} stop gpu-1`],
    effect:
      "Stops it with your key and posts its card here; the thread says when it is off and billing has stopped. Someone else's machine: you are offered to ask its owner.",
  },
  restart: {
    summary: 'Restart a machine and post here when it is ready (--no-wait: do not watch it).',
    examples: [`${ps} restart gpu-1`],
    effect: 'Restarts it with your key; the card follows it and the thread says when it is ready again.',
  },
} as const satisfies Record<PowerVerb, { summary: string; examples: readonly string[]; effect: string }>;

const TOOLS = {
  start: {
    name: 'start_machine',
    title: 'Start a machine',
    description:
      "Starts a Paperspace machine that is off, with the person's own key, and follows it until it is ready. Someone else's machine is offered as a request to its owner.",
    idempotent: true,
  },
  stop: {
    name: 'stop_machine',
    title: 'Stop a machine',
    description:
      "Stops a running Paperspace machine, with the person's own key, and follows it until it is off and billing has stopped. Unsaved work on it is lost.",
    destructive: true,
    idempotent: true,
  },
  restart: {
    name: 'restart_machine',
    title: 'Restart a machine',
    description:
      "Restarts a running Paperspace machine, with the person's own key, and follows it until it is ready again. Unsaved work on it is lost.",
    destructive: true,
  },
} as const satisfies Record<PowerVerb, OperationTool>;

export function powerOperation<const Verb extends PowerVerb>(verb: Verb, requests: OwnerRequests) {
  const words = WORDS[verb];
  return defineOperation({
    name: verb,
    usage: `${ps} ${verb} <machine> [--no-wait]`,
    summary: words.summary,
    help: { parameters: [MACHINE_HELP, NO_WAIT_HELP], examples: words.examples, effect: words.effect },
    kind: 'change',
    tool: TOOLS[verb],
    params: z.object({
      machine: machineParameter,
      noWait: z
        .boolean()
        .default(false)
        .describe('Do not follow the machine to its new state; nothing more is posted.'),
    }),
    read(args) {
      const read = readOneMachine(verb, args, [NO_WAIT]);
      return read.ok
        ? accept({ machine: read.value.machine, noWait: read.value.options.has(NO_WAIT.name) })
        : read;
    },
    // Acked before the machine is even looked up: a replica lost before the request reaches its intent
    // leaves this receipt, and the person still hears that nothing was done.
    receive: (command, asker, deps: MachinesDeps) =>
      receiveRequest(deps, asker, { operation: verb, subject: command.machine }),
    async run(command, context, deps: MachinesDeps) {
      const client = await context.userClient();
      if (!client) return;
      const machine = await findMachine(client, command.machine);
      const flow = {
        deps: deps,
        web: context.web,
        noWait: command.noWait,
        card: { kind: 'post', channel: context.channelId } as const,
        tell: context.replyPrivately,
        ...(context.receipt === undefined ? {} : { receipt: context.receipt }),
      };
      // Someone else's machine: Paperspace lets only its owner power it (approvals feature).
      if ((await requests.routePowerToOwner(context, machine, verb, flow)) === 'handled') return;
      try {
        await requestPower({ ...flow, actor: { user: context.user, client }, machine, verb });
      } catch (error) {
        // v1 names no owner: Paperspace's refusal is the first sign it is someone else's machine.
        if (!(await requests.offerPowerRequest(error, context, machine, verb, deps))) throw error;
      }
    },
  });
}
