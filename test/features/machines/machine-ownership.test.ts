// Claiming and assigning machines on API v1, where Paperspace names no owner and the bot records one:
// a machine someone owns cannot be claimed from them, two people clicking "This is mine" together
// leave one owner, only an administrator of the team assigns, the new and the previous owner are told
// by direct message, and nobody linked to another Paperspace account can be given a team machine.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { messageText } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { command } from '../account/helpers.js';
import { cardValue } from './machine-kit.js';

const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const ADA = USERS.ada.slackId;
const LEE = 'U0LEE';

const bot = useTestBot({ dialect: 'v1', linked: ['maya', 'sam', 'ada'] });

const ownerOf = async (machineId: string) =>
  (await bot.store.machineOwners.ownersOf(bot.slack.teamId, [machineId])).get(machineId);

/** Clicks "This is mine" on the card of `machineId` as `userId`; answers what they were told. */
async function clickClaim(userId: string, machineId: string, name: string) {
  const click = bot.requests.blockAction({
    actionId: ActionId.machineClaim,
    value: cardValue(machineId, name),
    blockId: `machine_actions:${machineId}`,
    userId,
    ephemeral: true,
  });
  await bot.send(click);
  return messageText(await bot.slack.waitForResponse(click.responseUrlId ?? ''));
}

describe('claiming a machine', () => {
  it('makes a machine nobody owns the claimer’s, and refuses in words to take it from them', async () => {
    expect(messageText(await command(bot, 'sam', 'claim sam-dev'))).toContain('*sam-dev* is yours now');
    expect((await ownerOf('psorb004'))?.userId).toBe(SAM);

    const maya = messageText(await command(bot, 'maya', 'claim sam-dev'));
    expect(maya).toContain(`*sam-dev* is already <@${SAM}>’s`);
    expect(maya).toContain('/ps assign');
    expect((await ownerOf('psorb004'))?.userId).toBe(SAM);
    expect(messageText(await command(bot, 'sam', 'claim sam-dev'))).toContain('*sam-dev* is already yours');
  });

  it('leaves one owner when two people click This is mine at the same moment', async () => {
    const [sams, mayas] = await Promise.all([
      clickClaim(SAM, 'psorb002', 'team-build'),
      clickClaim(MAYA, 'psorb002', 'team-build'),
    ]);
    const owner = (await ownerOf('psorb002'))?.userId;
    expect([SAM, MAYA]).toContain(owner);
    const [winner, loser] = owner === SAM ? [sams, mayas] : [mayas, sams];
    expect(winner).toContain('*team-build* is yours now');
    expect(loser).toContain(`*team-build* is already <@${owner}>’s`);
    // The audit trail shows one claim that took: a lost one is no second owner.
    const records = await bot.store.audit.list({ teamId: bot.slack.teamId, limit: 50 });
    const claims = records.filter(
      (record) => record.action === 'machine.claim' && record.resourceId === 'psorb002',
    );
    expect(claims.filter((record) => record.outcome === 'ok').map((record) => record.userId)).toEqual([
      owner,
    ]);
  });
});

describe('assigning a machine', () => {
  it('refuses a member in words, and changes nothing', async () => {
    const told = messageText(await command(bot, 'sam', `assign sam-cad <@${SAM}|sam>`));
    expect(told).toContain('Only team administrators can assign machines to teammates');
    expect(await ownerOf('psorb005')).toBeUndefined();
  });

  it('tells the new owner and the previous one by direct message', async () => {
    expect(messageText(await command(bot, 'sam', 'claim sam-cad'))).toContain('is yours now');
    const told = messageText(await command(bot, 'maya', `assign sam-cad <@${LEE}|lee>`));
    expect(told).toContain(`*sam-cad* is <@${LEE}>’s now`);
    expect(told).toContain('They have not linked a Paperspace key yet');
    expect((await ownerOf('psorb005'))?.userId).toBe(LEE);
    const dms = bot.slack
      .calls('chat.postMessage')
      .filter((call) => [LEE, SAM].includes(String(call.args.channel)));
    const toLee = dms.find((call) => call.args.channel === LEE);
    const toSam = dms.find((call) => call.args.channel === SAM);
    expect(messageText(toLee?.args ?? {})).toContain(`<@${MAYA}> assigned *sam-cad* to you`);
    expect(messageText(toSam?.args ?? {})).toContain(
      `<@${MAYA}> assigned *sam-cad*, which was yours, to <@${LEE}>`,
    );
    // Maya assigned it: she is not told what she did.
    expect(bot.slack.calls('chat.postMessage').some((call) => call.args.channel === MAYA)).toBe(false);
  });

  it('refuses someone linked to another Paperspace account, in words that name no raw mention', async () => {
    const told = messageText(await command(bot, 'maya', `assign maya-trainer <@${ADA}|ada>`));
    expect(told).toContain('The person you chose linked a key of another Paperspace team');
    expect(told).not.toContain('&lt;@');
    expect(await ownerOf('psorb001')).toBeUndefined();
  });
});
