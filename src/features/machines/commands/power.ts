// /ps start|stop|restart <machine> [--no-wait]: find the machine with the typist's key, then the shared
// power flow posts the card in this channel and watches it.

import type { CommandHandler, CommandOf } from '../../../slack/command-context.js';
import { findMachine } from '../machine-lookup.js';
import { requestPower } from '../power-request.js';

type PowerCommand = 'start' | 'stop' | 'restart';

export function powerCommand<N extends PowerCommand>(verb: N): CommandHandler<N> {
  return async (command: CommandOf<PowerCommand>, context) => {
    const client = await context.userClient();
    if (!client) return;
    const machine = await findMachine(client, command.machine);
    await requestPower({
      deps: context.deps,
      web: context.web,
      actor: { user: context.user, client },
      machine,
      verb,
      noWait: command.noWait,
      card: { kind: 'post', channel: context.channelId },
      tell: context.replyPrivately,
    });
  };
}
