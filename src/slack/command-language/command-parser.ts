// Reads the text after `/ps` into a Command, or into an error that names the problem and the argument
// together with the command's usage line. Bad input never reaches a service or the API.
// Order of checks: a pasted secret is refused before anything else reads the text (so no error can
// echo it), then the length cap, then tokens (quotes, Slack markup), then the command's own rules.
import { SLASH_COMMAND } from '../ids.js';
import { readAvailability, readDrive, readFiltered, readScript } from './catalog-commands.js';
import { closestMatch } from './closest-match.js';
import {
  fail,
  failWith,
  type ParseResult,
  type Reader,
  success,
  withoutArguments,
} from './command-arguments.js';
import {
  COMMAND_WORDS,
  COMMANDS,
  commandsForTopic,
  GENERAL_USAGE,
  groupUsage,
  usageOf,
} from './command-grammar.js';
import { echo } from './echo.js';
import {
  readAccess,
  readCreate,
  readDestroy,
  readMachineOnly,
  readPower,
  readUpdate,
  readUsage,
  readWait,
} from './machine-commands.js';
import { readRemind } from './reminder-commands.js';
import { looksLikeSecret } from './secret-detector.js';
import { readApprovals, readShare } from './sharing-commands.js';
import { readAlerts, readDigest, readSpend } from './spend-commands.js';
import { readSteps } from './steps-commands.js';
import type { Token } from './tokenize.js';
import { tokenize } from './tokenize.js';

export type { ParseResult } from './command-arguments.js';

/** Longer texts are refused: no command needs this much, and it bounds the parser's work. */
export const MAX_COMMAND_LENGTH = 4000;

export const SECRET_REFUSAL =
  'That looks like an API key. It was not stored or shown. Rotate it in Paperspace now, then link the new key privately with /ps login.';

/** Answered only if the parser has a bug; the fuzz test checks that no input ever gets it. */
export const PARSER_FAILURE = 'Sorry, that command could not be read. Please report this.';

/** Reads the text of a `/ps` command. Never throws. */
export function parseCommand(text: string): ParseResult {
  try {
    return parse(typeof text === 'string' ? text : '');
  } catch {
    return { ok: false, error: PARSER_FAILURE, usage: GENERAL_USAGE };
  }
}

function parse(text: string): ParseResult {
  if (looksLikeSecret(text) || hasLoginArgument(text)) {
    return { ok: false, error: SECRET_REFUSAL, usage: usageOf('login'), secretDetected: true };
  }
  if (text.length > MAX_COMMAND_LENGTH) {
    return failWith(
      GENERAL_USAGE,
      `The command is too long: ${text.length} characters, and the limit is ${MAX_COMMAND_LENGTH}.`,
    );
  }
  const tokenized = tokenize(text);
  if (!tokenized.ok) return failWith(usageOfTypedWord(text), tokenized.error);
  const [first, ...args] = tokenized.tokens;
  if (first === undefined) return success({ name: 'help', topic: null });
  const word = first.text.toLowerCase();
  const read = Object.hasOwn(READERS, word) ? READERS[word] : undefined;
  if (read !== undefined) return read(args);
  const suggestion = first.quoted ? null : closestMatch(word, COMMAND_WORDS);
  const hint =
    suggestion !== null
      ? `Did you mean "${suggestion}"?`
      : first.equalsAt > 0
        ? `To filter machines, use ${usageOf('list')}.`
        : `Type ${SLASH_COMMAND} help to see the commands.`;
  return failWith(GENERAL_USAGE, `Unknown command ${echo(first.text)}. ${hint}`);
}

/**
 * Whatever follows `login` is most likely a key the person meant to paste, even one the detector does
 * not recognise (a short or unusual key): it is answered as a pasted key. Read before tokenizing, so
 * not even a tokenizer error can echo it.
 */
function hasLoginArgument(text: string): boolean {
  const [word, ...rest] = text.trim().split(/\s+/);
  return word?.toLowerCase() === 'login' && rest.length > 0;
}

/** The usage of the command a text starts with, read without tokens (for errors found while splitting). */
function usageOfTypedWord(text: string): string {
  const word = text.trim().split(/\s+/)[0]?.toLowerCase() ?? '';
  return COMMAND_WORDS.includes(word) ? groupUsage(word) : GENERAL_USAGE;
}

const READERS: Record<string, Reader> = {
  help: readHelp,
  '--help': readHelp,
  '-h': readHelp,
  // Arguments never reach here (hasLoginArgument).
  login: () => success({ name: 'login' }),
  logout: (args) => withoutArguments('logout', args),
  whoami: (args) => withoutArguments('whoami', args),
  list: (args) => readFiltered('list', args),
  show: (args) => readMachineOnly('show', args),
  start: (args) => readPower('start', args),
  stop: (args) => readPower('stop', args),
  restart: (args) => readPower('restart', args),
  wait: readWait,
  create: readCreate,
  update: readUpdate,
  destroy: readDestroy,
  access: readAccess,
  usage: readUsage,
  availability: readAvailability,
  scripts: (args) => withoutArguments('scripts', args),
  script: readScript,
  templates: (args) => readFiltered('templates', args),
  users: (args) => readFiltered('users', args),
  networks: (args) => readFiltered('networks', args),
  drives: (args) => withoutArguments('drives', args),
  drive: readDrive,
  share: readShare,
  shares: (args) => withoutArguments('shares', args),
  remind: readRemind,
  reminders: (args) => withoutArguments('reminders', args),
  approvals: readApprovals,
  requests: (args) => withoutArguments('requests', args),
  spend: readSpend,
  digest: readDigest,
  alerts: readAlerts,
  steps: readSteps,
};

function readHelp(args: Token[]): ParseResult {
  if (args.length === 0) return success({ name: 'help', topic: null });
  const typed = args.map((token) => token.text).join(' ');
  const topic = typed.trim().toLowerCase().split(/\s+/).join(' ');
  const specs = commandsForTopic(topic);
  if (specs === null) {
    const suggestion = closestMatch(topic, [...COMMAND_WORDS, ...COMMANDS.map((spec) => spec.name)]);
    const hint =
      suggestion === null ? ` Type ${SLASH_COMMAND} help to see them all.` : ` Did you mean "${suggestion}"?`;
    return fail('help', `Unknown command ${echo(typed)} in help.${hint}`);
  }
  return success({ name: 'help', topic });
}
