// The lifecycle most bot tests share: one bot per test file, started before its tests and closed
// after them, with the fake Slack's record cleared before each test so that every test reads only
// the calls it caused, and every v1 exchange checked against the OpenAPI after each test.

import { appendFileSync } from 'node:fs';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';
import { wordingProblems } from './message-scan.js';
import { startTestBot, type TestBot, type TestBotOptions, type TestUserName } from './test-bot.js';

export interface UseTestBotOptions extends TestBotOptions {
  /** Demo people whose keys are linked once the bot is up. */
  linked?: TestUserName[];
  /** Runs once the bot is up and the people are linked: more machines, a clock moved forward. */
  prepare?: (bot: TestBot) => void | Promise<void>;
}

/**
 * Registers the file's hooks and answers the bot. The bot itself only exists from beforeAll on, so
 * what is answered stands in for it: use it in tests and hooks, not while the file is being loaded.
 */
export function useTestBot(options: UseTestBotOptions = {}): TestBot {
  const { linked = [], prepare, ...botOptions } = options;
  let started: TestBot | undefined;
  beforeAll(async () => {
    started = await startTestBot(botOptions);
    for (const name of linked) await started.link(name);
    await prepare?.(started);
  });
  afterAll(async () => {
    await started?.close();
  });
  beforeEach(() => {
    started?.slack.reset();
  });
  // The test that made the bot send, or the emulator answer, what v1's OpenAPI does not allow fails;
  // so does one that made the bot show a person a status code or a mention as raw text.
  afterEach(() => {
    started?.assertV1Specification();
    if (started !== undefined) reportWording(started.slack);
  });
  return new Proxy({} as TestBot, {
    get(_target, property) {
      if (started === undefined) {
        throw new Error(`useTestBot: bot.${String(property)} was read before the bot started (beforeAll)`);
      }
      return Reflect.get(started, property);
    },
  });
}

function reportWording(slack: TestBot['slack']): void {
  const problems = wordingProblems(slack);
  if (problems.length === 0) return;
  const report = process.env.WORDING_REPORT;
  if (report !== undefined) {
    appendFileSync(report, `${problems.map((problem) => JSON.stringify(problem)).join('\n')}\n`);
    return;
  }
  throw new Error(
    `The bot showed a person ${problems.map((p) => `${p.rule} (${p.where}): ${p.excerpt}`).join('\n')}`,
  );
}
