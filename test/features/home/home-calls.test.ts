// What drawing App Home costs in Paperspace calls, read from the emulator's request log: a team
// member's Home shows teammates' machines, whose Settings, Access and Destroy need the viewer's team
// role; the legacy API tells it only by listing the team's users. That read runs beside the machine
// list, never after it, and is kept for the team, so the next Home is one call.
// A file of its own: the team's users are kept for minutes, so the first read must be this file's.
import { describe, expect, it, vi } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../account/helpers.js';

const bot = useTestBot({ linked: ['sam'] });

/** The paths of the Paperspace requests drawing Sam's Home made, and the view published. */
async function callsOfOneHome(whileInFlight?: () => Promise<void>) {
  const { state } = bot.emulator;
  const before = state.requests().length;
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
    paths: state
      .requests()
      .slice(before)
      .map((request) => request.path),
  };
}

describe('Paperspace calls per App Home', () => {
  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "reads a team member's role beside the machine list, then lists only the machines",
    async () => {
      const { state } = bot.emulator;
      // Held until two are in flight at once: read after the list, the role would never start.
      state.hangKey(USERS.sam.apiKey);
      const first = await callsOfOneHome(async () => {
        try {
          await vi.waitFor(() => expect(state.heldRequests()).toBe(2));
        } finally {
          state.releaseKey(USERS.sam.apiKey);
        }
      });
      expect([...first.paths].sort()).toEqual(['/machines/getMachines', '/users/getUsers']);
      expect(first.view).toContain(ActionId.requestPower);

      const second = await callsOfOneHome();
      expect(second.paths).toEqual(['/machines/getMachines']);
    },
  );
});
