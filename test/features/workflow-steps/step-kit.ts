// What the step suites share: how often the bot tried to end a run.
import type { FakeSlack } from '../../support/fake-slack.js';

/** The functions.* calls the bot made for one run, in order: a run ends with exactly one. */
export const completionsOf = (slack: Pick<FakeSlack, 'calls'>, executionId: string): string[] =>
  slack
    .calls()
    .filter((call) => call.method.startsWith('functions.') && call.args.function_execution_id === executionId)
    .map((call) => call.method);
