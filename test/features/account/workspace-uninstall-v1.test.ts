// Leaving a workspace on Paperspace v1, as signed app_uninstalled requests into the real receiver: the
// access a live share gave on Paperspace is removed with the sharer's key before the keys are purged,
// and when Paperspace refuses, the keys are purged anyway and the audit record names what was left.
import { describe, expect, it } from 'vitest';
import { ActionId } from '../../../src/slack/ids.js';
import { createFakeClock } from '../../../tools/emulator/index.js';
import type { ResponseUrlPost } from '../../support/fake-slack.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const CHANNEL = 'C0CHANNEL';
const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const clock = createFakeClock();

const bot = useTestBot({
  dialect: 'v1',
  now: clock.now,
  emulator: { now: clock.now },
});
const accessors = () => bot.emulator.state.accessors('psorb002');
const maya = () => ({ teamId: bot.slack.teamId, userId: MAYA });

/** Maya links her key and shares team-build with Sam, who becomes an accessor on Paperspace. */
async function shareWithSam() {
  await bot.link('maya');
  await bot.link('sam');
  const command = bot.requests.slashCommand({
    text: `share team-build <@${SAM}|sam>`,
    userId: MAYA,
    channelId: CHANNEL,
  });
  await bot.send(command);
  const offer: ResponseUrlPost = await bot.slack.waitForResponse(command.responseUrlId ?? '');
  const confirm = (offer.blocks ?? [])
    .flatMap((block) => (block as { elements?: { action_id?: string; value?: string }[] }).elements ?? [])
    .find((element) => element.action_id === ActionId.shareConfirm);
  const click = bot.requests.blockAction({
    actionId: ActionId.shareConfirm,
    value: confirm?.value ?? '',
    userId: MAYA,
    channelId: CHANNEL,
    ephemeral: true,
  });
  await bot.send(click);
  await bot.slack.waitForResponse(click.responseUrlId ?? '');
  expect(accessors()).toEqual(['u1sam']);
}

async function purgeRecord() {
  await expect.poll(async () => bot.vault.account(maya()), { timeout: 10_000 }).toBeUndefined();
  const records = await bot.store.audit.list({ teamId: bot.slack.teamId, limit: 50 });
  return { records, purge: records.find((record) => record.action === 'workspace.purge') };
}

describe('leaving a workspace on Paperspace v1', () => {
  it('removes the access a live share gave, with the sharer key, before purging the keys', async () => {
    await shareWithSam();
    const response = await bot.send(bot.requests.event({ type: 'app_uninstalled' }));
    expect(response.status).toBe(200);

    const { records, purge } = await purgeRecord();
    expect(accessors()).toEqual([]);
    expect(purge).toMatchObject({ outcome: 'ok', message: 'app_uninstalled' });
    expect(records).toContainEqual(
      expect.objectContaining({
        action: 'share.revoke',
        userId: MAYA,
        resourceId: 'psorb002',
        outcome: 'ok',
      }),
    );
    expect(await bot.store.delegations.listActive(clock.now(), { teamId: bot.slack.teamId })).toEqual([]);
  });

  it('purges the keys even when Paperspace refuses, and the audit record says what access was left', async () => {
    await shareWithSam();
    bot.emulator.state.failNextRequests({
      count: 5,
      status: 500,
      path: '/v1/machines/psorb002/accessors/u1sam',
    });
    await bot.send(bot.requests.event({ type: 'app_uninstalled' }));

    const { records, purge } = await purgeRecord();
    expect(accessors()).toEqual(['u1sam']);
    expect(purge?.outcome).toBe('ok');
    expect(purge?.message).toContain('app_uninstalled; access left in place on Paperspace');
    expect(purge?.message).toContain(`share by ${MAYA}: accessor u1sam on psorb002 not removed`);
    expect(purge?.message).not.toContain(USERS.maya.apiKey);
    expect(records).toContainEqual(
      expect.objectContaining({ action: 'share.revoke', resourceId: 'psorb002', outcome: 'error' }),
    );
    expect(await bot.store.delegations.listActive(clock.now(), { teamId: bot.slack.teamId })).toEqual([]);
  });
});
