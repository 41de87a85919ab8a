// `/ps wait <machine> <state> [--timeout D]`: a public card for the machine, updated as it changes,
// and a reply in its thread when it reaches the state (or fails, disappears, or runs out of time).

import { z } from 'zod';
import { bootedStateOf } from '../../../domain/machine-states.js';
import { WAITABLE_STATES, type WaitableState } from '../../../paperspace/constants.js';
import { plainMessage } from '../../../slack/block-kit/messages.js';
import { escapeMrkdwn, nameMrkdwn } from '../../../slack/block-kit/text.js';
import type { CommandContext } from '../../../slack/command-context.js';
import {
  accept,
  fail,
  type OptionSpec,
  readMachine,
  splitWithoutKeyValues,
  tooMany,
} from '../../../slack/command-language/command-arguments.js';
import type { ValueResult } from '../../../slack/command-language/command-values.js';
import { MAX_DURATION_MS, parseDuration } from '../../../slack/command-language/duration.js';
import { echo } from '../../../slack/command-language/echo.js';
import { SLASH_COMMAND as ps } from '../../../slack/ids.js';
import { defineOperation } from '../../../slack/operation.js';
import { announce, withPrivateCopy } from '../../../slack/posting.js';
import { machineCardMessage } from '../../machines/blocks/machine-card.js';
import { stateMrkdwn } from '../../machines/blocks/machine-state.js';
import { MACHINE_HELP, machineParameter } from '../../machines/machine-grammar.js';
import { findMachine } from '../../machines/machine-lookup.js';
import { MAX_ACTIVE_WATCHES_PER_PERSON } from '../../machines/machine-watcher.js';
import { waitingNotice } from '../watch-messages.js';
import type { WatchesDeps } from '../watches-deps.js';

// Checked here as well as by the watcher, so that no card is posted for a watch that cannot start.

const TIMEOUT: OptionSpec = { name: '--timeout', takesValue: true };
export const DEFAULT_WAIT_TIMEOUT_MS = 30 * 60 * 1000;

export function parseWaitState(text: string): ValueResult<WaitableState> {
  const typed = text.toLowerCase();
  const state = WAITABLE_STATES.find((candidate) => candidate === typed);
  return state === undefined
    ? { ok: false, error: `use one of ${WAITABLE_STATES.join(', ')}` }
    : { ok: true, value: state };
}

type WaitParams = { machine: string; state: WaitableState; timeoutMs: number };

export const waitOperation = defineOperation({
  name: 'wait',
  usage: `${ps} wait <machine> <off|serviceready|ready> [--timeout 30m]`,
  summary: 'Post here when a machine reaches a state (timeout 90s, 10m, 2h or 1h30m; at most 24h).',
  help: {
    parameters: [
      MACHINE_HELP,
      '`off`, `serviceready` or `ready`: the state to wait for (a headless Linux machine stops at serviceready).',
      '`--timeout 30m`: how long to wait (90s, 10m, 2h, 1h30m; at most 24h; default 30m).',
    ],
    examples: [`${ps} wait gpu-1 ready`, `${ps} wait gpu-1 off --timeout 2h`],
    effect: 'Changes nothing: posts here once the machine gets there, or says it did not in time.',
  },
  kind: 'read',
  tool: {
    name: 'wait_for_machine',
    title: 'Wait for a machine',
    description:
      'Changes nothing: follows a machine until it is off, serviceready or ready, and tells the person in their direct messages with the app when it gets there (or that it did not in time).',
    followUp:
      'I am following it: its card is in your messages with me in Slack, and I will say there when it gets there, or that it did not in time.',
  },
  params: z.object({
    machine: machineParameter,
    state: z.enum(WAITABLE_STATES).describe('The state to wait for.'),
    timeoutMs: z
      .number()
      .int()
      .positive()
      .max(MAX_DURATION_MS)
      .default(DEFAULT_WAIT_TIMEOUT_MS)
      .describe('How long to wait, in milliseconds (default 30 minutes, at most 24 hours).'),
  }),
  read(args) {
    const split = splitWithoutKeyValues('wait', args, [TIMEOUT]);
    if (!split.ok) return split;
    const [machineToken, stateToken] = split.args.positionals;
    const machine = readMachine(machineToken);
    if (!machine.ok) return machine;
    if (stateToken === undefined) return fail('Missing <state>: give off, serviceready or ready.');
    const state = parseWaitState(stateToken.text);
    if (!state.ok) return fail(`Invalid <state> ${echo(stateToken.text)}: ${state.error}.`);
    const extra = tooMany('wait', split.args.positionals, 2, '<machine> and <state>');
    if (extra !== null) return extra;
    let timeoutMs = DEFAULT_WAIT_TIMEOUT_MS;
    const typedTimeout = split.args.options.get(TIMEOUT.name);
    if (typeof typedTimeout === 'string') {
      const duration = parseDuration(typedTimeout);
      if (!duration.ok) return fail(`Invalid --timeout ${echo(typedTimeout)}: ${duration.error}.`);
      timeoutMs = duration.ms;
    }
    return accept({ machine: machine.value, state: state.value, timeoutMs });
  },
  run: waitFor,
});

async function waitFor(command: WaitParams, context: CommandContext, deps: WatchesDeps): Promise<void> {
  const { user } = context;
  const active = await deps.store.watches.countActive(user);
  if (active >= MAX_ACTIVE_WATCHES_PER_PERSON) {
    const text =
      `You are already watching ${active} machines, the most one person can at a time. ` +
      'Each watch ends when its machine gets there or its timeout passes; try again after some have.';
    await context.replyPrivately(plainMessage(text));
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
    await context.replyPrivately(plainMessage(text));
    return;
  }
  if (machine.state === command.state) {
    const text = `${nameMrkdwn(machine.name)} is already ${stateMrkdwn(machine.state)}.`;
    await context.replyPrivately(plainMessage(text));
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
}
