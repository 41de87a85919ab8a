// What a round of `/ps start` commands came to, read only from the outside: which machines Paperspace
// started (the emulator's own request log), and what people were told in Slack (the fake Slack's
// record of posts, ephemeral messages and response_url replies). Nothing is read from the bot.
import type { RunningEmulator } from '../../tools/emulator/index.js';
import type { FakeSlack } from '../support/fake-slack.js';
import { type TestUserName, USERS } from '../support/test-bot.js';

/** One `/ps start` as typed, and whether the replica it was delivered to acknowledged it. */
export interface SentCommand {
  machineId: string;
  name: string;
  owner: TestUserName;
  /** The replica Slack delivered it to. */
  via: string;
  /** The replica answered Slack's request (within the request, as Slack requires). */
  acked: boolean;
  /** What the acknowledgement said, if anything. */
  ackBody: unknown;
  responseUrlId: string | undefined;
}

export interface RoundFigures {
  commands: number;
  acked: number;
  /** Machines Paperspace took a start request for. */
  started: number;
  /**
   * Of those, the ones whose command went to the replica that was killed: it sent them before dying.
   * Undefined when no replica was killed (the database cut).
   */
  startedByKilled: number | undefined;
  /** Completions posted for the started machines, in all. */
  completions: number;
  /** Started machines no completion named. */
  lost: number;
  /** Started machines named by more than one completion. */
  twice: number;
  /** Started machines whose person was told the start did not happen. */
  startedButToldNotSent: number;
  /** Commands whose machine Paperspace never started. */
  notStarted: number;
  /** Of those, the ones whose person was told the start did not happen. */
  notStartedTold: number;
  /** Acknowledged commands about whose machine nothing at all was said to anyone. */
  ackedWithoutMessage: number;
}

/** The ids of the machines the emulator accepted a start request for (v1 PATCH, or the contract's POST). */
export function startedMachineIds(emulator: RunningEmulator): Set<string> {
  const started = new Set<string>();
  for (const entry of emulator.state.requests()) {
    const match = /\/machines\/([^/]+)\/start$/.exec(entry.path);
    if (match?.[1] !== undefined && entry.status >= 200 && entry.status < 300) started.add(match[1]);
  }
  return started;
}

/** Texts of the messages Slack took that people can read: posts and ephemeral messages. */
function postedTexts(slack: FakeSlack): string[] {
  return [...slack.calls('chat.postMessage'), ...slack.calls('chat.postEphemeral')]
    .filter((call) => call.answer?.ok === true)
    .map((call) => String(call.args.text ?? ''));
}

/**
 * The lines of posted messages that end a command's watch: they name the machine in bold and mention
 * its person (a completion in its thread, a line of a batch, or "did not happen"). One per message.
 */
export function completionsOf(slack: FakeSlack, command: Pick<SentCommand, 'name' | 'owner'>): string[] {
  const mention = `<@${USERS[command.owner].slackId}>`;
  return postedTexts(slack).flatMap((text) => {
    const line = text
      .split('\n')
      .find((candidate) => candidate.includes(`*${command.name}*`) && candidate.includes(mention));
    return line === undefined ? [] : [line];
  });
}

/** Whether anything the bot said anywhere (a card, a reply, an update, the ack) names the machine. */
function saidAnything(slack: FakeSlack, command: SentCommand): boolean {
  const said = [
    ...slack.calls().filter((call) => call.answer?.ok === true),
    ...(command.responseUrlId === undefined ? [] : slack.responses(command.responseUrlId)),
    command.ackBody ?? '',
  ];
  return said.some((thing) => JSON.stringify(thing).includes(command.name));
}

export function tally(
  emulator: RunningEmulator,
  slack: FakeSlack,
  commands: readonly SentCommand[],
  killed?: string,
): RoundFigures {
  const startedIds = startedMachineIds(emulator);
  const started = commands.filter((command) => startedIds.has(command.machineId));
  const notStarted = commands.filter((command) => !startedIds.has(command.machineId));
  const completions = started.map((command) => completionsOf(slack, command));
  const toldNotSent = (lines: string[]) => lines.some((line) => line.includes('did not happen'));
  return {
    commands: commands.length,
    acked: commands.filter((command) => command.acked).length,
    started: started.length,
    startedByKilled:
      killed === undefined ? undefined : started.filter((command) => command.via === killed).length,
    completions: completions.reduce((sum, lines) => sum + lines.length, 0),
    lost: completions.filter((lines) => lines.length === 0).length,
    twice: completions.filter((lines) => lines.length > 1).length,
    startedButToldNotSent: completions.filter(toldNotSent).length,
    notStarted: notStarted.length,
    notStartedTold: notStarted.filter((command) => toldNotSent(completionsOf(slack, command))).length,
    ackedWithoutMessage: commands.filter((command) => command.acked && !saidAnything(slack, command)).length,
  };
}

/** The figures as one line for the test's output. */
export function describeFigures(label: string, figures: RoundFigures): string {
  return (
    `${label}: ${figures.commands} commands, ${figures.acked} acked; ${figures.started} started` +
    (figures.startedByKilled === undefined ? '' : ' ') +
    (figures.startedByKilled === undefined ? '' : `(${figures.startedByKilled} by the killed replica)`) +
    ', ' +
    `${figures.completions} completions, ${figures.lost} lost, ${figures.twice} twice, ` +
    `${figures.startedButToldNotSent} started but told it did not happen; ${figures.notStarted} not started, ` +
    `${figures.notStartedTold} of them told so; ${figures.ackedWithoutMessage} acked with no message at all`
  );
}
