// What a /ps list costs in Paperspace calls, read from the emulator's request log: a team member's
// list needs their team role (for Settings, Access and Destroy on a teammate's machine), which the
// legacy API tells only by listing the team's users. That read runs beside the machine list, never
// after it, and is kept for the team, so each later list by anyone in the team is one call.
// A file of its own: the team's users are kept for minutes, so the first list must be this file's.
import { describe, expect, it, vi } from 'vitest';
import { machineIdFromBlockId } from '../../../src/features/machines/blocks/machine-ref.js';
import { ActionId } from '../../../src/slack/ids.js';
import { holdUntilInFlightTogether, logMark, pathsSince } from '../../support/paperspace-calls.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command, textOf } from '../account/helpers.js';

const bot = useTestBot({ linked: ['maya', 'sam'] });

/** The paths of the Paperspace requests one /ps list made, in the order the emulator answered them. */
async function callsOfOneList(user: 'maya' | 'sam', whileInFlight?: () => Promise<void>) {
  const { state } = bot.emulator;
  const before = logMark(state);
  const reply = command(bot, user, 'list');
  await whileInFlight?.();
  const { blocks } = await reply;
  expect(textOf(blocks)).toContain('sam-dev');
  return {
    blocks,
    paths: pathsSince(state, before),
  };
}

/** The action ids of a machine's card in a list. */
const actionsOf = (blocks: unknown, machineId: string) =>
  (blocks as { block_id?: string; elements?: { action_id: string }[] }[])
    .find((block) => machineIdFromBlockId(block.block_id ?? '') === machineId)
    ?.elements?.map((element) => element.action_id);

describe('Paperspace calls per /ps list', () => {
  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    "reads a team member's role beside the first list, then makes one call per list for anyone in the team",
    async () => {
      const { state } = bot.emulator;
      // Sam's requests are held until two are in flight at once: the role is read beside the machines.
      const first = await callsOfOneList('sam', holdUntilInFlightTogether(state, USERS.sam.apiKey, 2));
      expect([...first.paths].sort()).toEqual(['/machines/getMachines', '/users/getUsers']);
      // Sam is a member: no Settings, Access or Destroy on Maya's machine.
      expect(actionsOf(first.blocks, 'psorb001')).not.toContain(ActionId.machineOverflow);

      expect((await callsOfOneList('sam')).paths).toEqual(['/machines/getMachines']);
      expect((await callsOfOneList('sam')).paths).toEqual(['/machines/getMachines']);
      // Kept for the team, not for Sam: his teammate's list reads only the machines too.
      expect((await callsOfOneList('maya')).paths).toEqual(['/machines/getMachines']);
    },
  );

  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT === 'v1')(
    'sees a role at once when its person links an access token, though the team is kept',
    async () => {
      const before = await callsOfOneList('maya');
      // Without an access token the legacy API cannot show that Maya administers the team.
      expect(actionsOf(before.blocks, 'psorb003')).not.toContain(ActionId.machineOverflow);
      await bot.link('maya', { withAccessToken: true });
      const after = await callsOfOneList('maya');
      expect(actionsOf(after.blocks, 'psorb003')).toContain(ActionId.machineOverflow);
    },
  );

  it("reads the asker's key and account in one read of their vault record", async () => {
    const reads = vi.spyOn(bot.store.vaultEntries, 'get');
    await callsOfOneList('maya');
    const mayas = reads.mock.calls.filter(([user]) => user.userId === USERS.maya.slackId);
    reads.mockRestore();
    expect(mayas).toHaveLength(1);
  });

  it.skipIf(process.env.TEST_PAPERSPACE_DIALECT !== 'v1')(
    "reads the role from the key's session beside the first list on v1, then makes one call per list",
    async () => {
      const { state } = bot.emulator;
      // An administrator answers for the team's machines on v1: the role is read, beside the machines.
      const first = await callsOfOneList('sam', holdUntilInFlightTogether(state, USERS.sam.apiKey, 2));
      expect([...first.paths].sort()).toEqual(['/v1/auth/session', '/v1/machines']);
      expect((await callsOfOneList('sam')).paths).toEqual(['/v1/machines']);
      expect((await callsOfOneList('sam')).paths).toEqual(['/v1/machines']);
    },
  );
});
