// /ps start|stop|restart <machine> [--no-wait]: find the machine with the typist's key, then the shared
// power flow posts the card in this channel and watches it; someone else's machine goes to its owner.

import type { CommandHandler, CommandOf } from '../../../slack/command-context.js';
import { findMachine } from '../machine-lookup.js';
import type { OwnerRequests } from '../machines-wiring.js';
import { requestPower } from '../power-request.js';

type PowerCommand = 'start' | 'stop' | 'restart';

export function powerCommand<N extends PowerCommand>(verb: N, requests: OwnerRequests): CommandHandler<N> {
  return async (command: CommandOf<PowerCommand>, context) => {
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    const flow = {
      deps: context.deps,
      web: context.web,
      noWait: command.noWait,
      card: { kind: 'post', channel: context.channelId } as const,
      tell: context.replyPrivately,
    };
    // Someone else's machine: Paperspace lets only its owner power it (approvals feature).
    if ((await requests.routePowerToOwner(context, machine, verb, flow)) === 'handled') return;
    try {
      await requestPower({ ...flow, actor: { user: context.user, client }, machine, verb });
    } catch (error) {
      // v1 names no owner: Paperspace's refusal is the first sign it is someone else's machine.
      if (!(await requests.offerPowerRequest(error, context, machine, verb))) throw error;
    }
  };
}
