// What a /ps show costs in Paperspace calls, read from the emulator's request log: a team member
// looking at a teammate's machine needs their team role (Settings, Access and Destroy), which the
// legacy API tells only by listing the team's users. That read runs beside the machine's own calls,
// never after them, and is kept for the team, so the next show asks only for the machine.
// A file of its own: the team's users are kept for minutes, so the first read must be this file's.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { holdUntilInFlightTogether, logMark, pathsSince } from '../../support/paperspace-calls.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const bot = useTestBot({ linked: ['sam'] });

/** The paths of the Paperspace requests one `/ps show` made, in the order the emulator answered them. */
async function callsOfOneShow(whileInFlight?: () => Promise<void>) {
  const { state } = bot.emulator;
  const before = logMark(state);
  const reply = command(bot, 'sam', 'show psorb001');
  await whileInFlight?.();
  const { blocks } = await reply;
  expect(textOf(blocks)).toContain('maya-trainer');
  return {
    blocks,
    paths: pathsSince(state, before),
  };
}

describe('Paperspace calls per /ps show', () => {
  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "reads a team member's role beside the machine, then asks only for the machine",
    async () => {
      const { state } = bot.emulator;
      // Sam's requests are held until two are in flight at once: the role is read beside the machines.
      const first = await callsOfOneShow(holdUntilInFlightTogether(state, USERS.sam.apiKey, 2));
      expect(first.paths).toContain('/users/getUsers');
      // Sam is a member: Maya's machine shows Ask the owner, without Settings, Access or Destroy.
      expect(textOf(first.blocks)).toContain(ActionId.requestPower);
      expect(textOf(first.blocks)).not.toContain(ActionId.machineOverflow);

      const second = await callsOfOneShow();
      expect(second.paths).not.toContain('/users/getUsers');
      expect(second.paths).toEqual(first.paths.filter((path) => path !== '/users/getUsers'));
      expect(textOf(second.blocks)).not.toContain(ActionId.machineOverflow);
    },
  );
});
