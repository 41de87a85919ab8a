// A person whose polls keep failing the same way is logged once when it starts and once when it ends,
// not every interval: with a hung key that was a warning every 5 s per person.
import { describe, expect, it } from 'vitest';
import { createPollFailureStreaks } from '../../../src/features/watches/poll-failure-streaks.js';
import { PaperspaceServerError, PaperspaceTimeoutError } from '../../../src/paperspace/errors.js';
import { captureLogs, LEVEL } from '../../support/log-capture.js';

const ADA = 'T0TEAM/U0ADA';
const SAM = 'T0TEAM/U0SAM';
const timeout = () => new PaperspaceTimeoutError('watches.poll', 'check your machines', 4000);
const serverError = () =>
  new PaperspaceServerError({ operation: 'machines.list', action: 'list machines', status: 503, body: {} });

function setUp() {
  let clock = Date.UTC(2026, 10, 26, 9, 0, 0);
  const logs = captureLogs('info');
  const streaks = createPollFailureStreaks(logs.logger, () => clock);
  const advance = (ms: number) => {
    clock += ms;
  };
  const warnings = () => logs.lines().filter((line) => line.level === LEVEL.warn);
  const recoveries = () =>
    logs.lines().filter((line) => line.msg === 'the machines of a user could be listed again');
  return { streaks, advance, warnings, recoveries };
}

describe('logging the failed polls of a person', () => {
  it('warns once when timeouts start and says once, with the count, when a poll answers again', () => {
    const { streaks, advance, warnings, recoveries } = setUp();
    for (let interval = 0; interval < 6; interval += 1) {
      streaks.failed(ADA, timeout());
      advance(5000);
    }
    expect(warnings()).toHaveLength(1);
    expect(warnings()[0]).toMatchObject({ user: ADA });
    expect(JSON.stringify(warnings()[0])).toContain('did not answer within 4 s');

    streaks.answered(ADA);
    streaks.answered(ADA);
    expect(recoveries()).toHaveLength(1);
    expect(recoveries()[0]).toMatchObject({ user: ADA, failedPolls: 6, seconds: 30 });

    // A new streak after the recovery is news again.
    streaks.failed(ADA, timeout());
    expect(warnings()).toHaveLength(2);
  });

  it('warns again when the failure changes, and keeps each person apart', () => {
    const { streaks, warnings } = setUp();
    streaks.failed(ADA, timeout());
    streaks.failed(SAM, timeout());
    streaks.failed(ADA, serverError());
    streaks.failed(ADA, serverError());
    expect(warnings().map((line) => line.user)).toEqual([ADA, SAM, ADA]);
  });

  it('logs nothing for a person whose polls answer, and forgets people no longer polled', () => {
    const { streaks, warnings, recoveries } = setUp();
    streaks.answered(SAM);
    streaks.failed(ADA, timeout());
    streaks.keepOnly(new Set([SAM]));
    streaks.answered(ADA);
    expect(recoveries()).toHaveLength(0);
    streaks.failed(ADA, timeout());
    expect(warnings()).toHaveLength(2);
  });
});
