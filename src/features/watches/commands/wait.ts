// `/ps wait <machine> <state> [--timeout D]`: a public card for the machine, updated as it changes,
// and a reply in its thread when it reaches the state (or fails, disappears, or runs out of time).

import { bootedStateOf } from '../../../domain/machine-states.js';
import { escapeMrkdwn, mrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandHandler } from '../../../slack/command-context.js';
import { announce, withPrivateCopy } from '../../../slack/posting.js';
import { machineCardMessage } from '../../machines/blocks/machine-card.js';
import { stateMrkdwn } from '../../machines/blocks/machine-state.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { MAX_ACTIVE_WATCHES_PER_PERSON } from '../../machines/machine-watcher.js';
import { waitingNotice } from '../watch-messages.js';

// Checked here as well as by the watcher, so that no card is posted for a watch that cannot start.

export const waitCommand: CommandHandler<'wait'> = async (command, context) => {
  const { deps, user } = context;
  const active = await deps.store.watches.countActive(user);
  if (active >= MAX_ACTIVE_WATCHES_PER_PERSON) {
    const text =
      `You are already watching ${active} machines, the most one person can at a time. ` +
      'Each watch ends when its machine gets there or its timeout passes; try again after some have.';
    await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
    return;
  }
  const client = await context.userClient();
  if (client === undefined) return;
  const machine = await findMachine(client, command.machine);
  if (command.state === 'ready' && bootedStateOf(machine) === 'serviceready') {
    const text =
      `${nameMrkdwn(machine.name)} is a headless Linux machine: it has no remote desktop agent, so a ` +
      `boot ends at serviceready and never reaches ready. Wait for that instead: ` +
      `\`/ps wait ${escapeMrkdwn(machine.name)} serviceready\`.`;
    await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
    return;
  }
  if (machine.state === command.state) {
    const text = `${nameMrkdwn(machine.name)} is already ${stateMrkdwn(machine.state)}.`;
    await context.replyPrivately({ blocks: [{ type: 'section', text: mrkdwn(text) }], text });
    return;
  }
  const card = machineCardMessage(machine, {
    notice: waitingNotice({ userId: user.userId, targetState: command.state }),
    timeline: [{ state: machine.state, at: deps.now() }],
  });
  // The watch never depends on the card: when Slack refuses it everywhere, the person gets it privately
  // and the outcome still reaches them.
  const { place, notice } = await announce(
    context.web,
    { channel: context.channelId, userId: user.userId },
    card,
    'the card',
    deps.pacer,
  );
  await deps.watcher.watch({
    user,
    machineId: machine.id,
    machineName: machine.name,
    targetState: command.state,
    channel: place.channel,
    ...(place.ts !== undefined ? { messageTs: place.ts } : {}),
    timeoutMs: command.timeoutMs,
    initialState: machine.state,
  });
  if (notice !== undefined) {
    await context.replyPrivately(place.ts === undefined ? withPrivateCopy(notice, card) : notice);
  }
};
