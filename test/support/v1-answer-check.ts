// The suite-wide half of the v1 contract test: every answer an emulator gives under /v1, in any test
// that starts one through the shared harnesses, is checked against the test's reading of the OpenAPI
// (test/contract/v1-openapi-schemas.ts) as it is given. The emulator takes the check as its
// `onExchange` hook; the harness asks for the problems after each test and fails it on any, so an
// emulator answer that drifts from the document fails the test that saw it, not one scripted session.
import type { RequestLogEntry } from '../../tools/emulator/index.js';
import { answerProblemsOf, requestProblemsOf } from '../contract/v1-openapi-check.js';

const V1_PATH = /^\/v1(\/|$)/;

export interface V1AnswerCheck {
  /** Give this to startEmulator's `onExchange`. */
  readonly onExchange: (entry: RequestLogEntry) => void;
  /** The problems found since the last call, each once. */
  takeProblems(): string[];
  /** Throws, naming every problem found since the last call, if there were any. */
  assertNoProblems(): void;
}

export interface V1AnswerCheckOptions {
  /**
   * Also check what was sent. Only where the bot is the only client: contract and emulator tests send
   * malformed requests on purpose, to see them refused.
   */
  readonly requests?: boolean;
}

export function createV1AnswerCheck(options: V1AnswerCheckOptions = {}): V1AnswerCheck {
  let problems: string[] = [];
  const takeProblems = () => {
    const taken = problems;
    problems = [];
    return taken;
  };
  return {
    onExchange(entry) {
      if (!V1_PATH.test(entry.path)) return;
      if (options.requests) problems.push(...requestProblemsOf(entry));
      problems.push(...answerProblemsOf(entry));
    },
    takeProblems,
    assertNoProblems() {
      const found = takeProblems();
      if (found.length === 0) return;
      throw new Error(
        `${found.length} v1 exchange(s) broke the OpenAPI (test/contract/v1-openapi-schemas.ts):\n${found.join('\n')}`,
      );
    },
  };
}

/** An `onExchange` that runs both the check and the one a test passed itself. */
export function bothHooks(
  check: V1AnswerCheck,
  own: ((entry: RequestLogEntry) => void) | undefined,
): (entry: RequestLogEntry) => void {
  return (entry) => {
    check.onExchange(entry);
    own?.(entry);
  };
}
