// What drawing App Home costs in Paperspace calls, read from the emulator's request log: a team
// member's Home shows teammates' machines, whose Settings, Access and Destroy need the viewer's team
// role; the legacy API tells it only by listing the team's users. That read runs beside the machine
// list, never after it, and is kept for the team, so the next Home is one call.
// A file of its own: the team's users are kept for minutes, so the first read must be this file's.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { holdUntilInFlightTogether, logMark, pathsSince } from '../../support/paperspace-calls.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../account/helpers.js';

const bot = useTestBot({ linked: ['sam'] });

/** The paths of the Paperspace requests drawing Sam's Home made, and the view published. */
async function callsOfOneHome(whileInFlight?: () => Promise<void>) {
  const { state } = bot.emulator;
  const before = logMark(state);
  bot.slack.reset();
  const response = await bot.send(
    bot.requests.event({ type: 'app_home_opened', user: USERS.sam.slackId, tab: 'home' }),
  );
  expect(response.status).toBe(200);
  await whileInFlight?.();
  const publish = await bot.slack.waitFor('views.publish');
  const view = textOf(publish.args.view);
  expect(view).toContain('maya-trainer');
  return {
    view,
    paths: pathsSince(state, before),
  };
}

describe('Paperspace calls per App Home', () => {
  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "reads a team member's role beside the machine list, then lists only the machines",
    async () => {
      const { state } = bot.emulator;
      // Sam's requests are held until two are in flight at once: the role is read beside the machines.
      const first = await callsOfOneHome(holdUntilInFlightTogether(state, USERS.sam.apiKey, 2));
      expect([...first.paths].sort()).toEqual(['/machines/getMachines', '/users/getUsers']);
      expect(first.view).toContain(ActionId.requestPower);

      const second = await callsOfOneHome();
      expect(second.paths).toEqual(['/machines/getMachines']);
    },
  );
});
