// The team's idle rule end to end: Maya administers Orbital Labs and links her key, Sam (a member) has
// not linked one, Ada has an account of her own. `/ps policy idle 2h` sets Paperspace's own shutdown
// timeout on the team's machines with each owner's key, and names those it could not set; a machine
// created through the bot gets it at once. Runs on both dialects.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { messageText } from '../../scheduler/harness.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { samLinksAndReadsNotice } from './policy-kit.js';

const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const onV1 = process.env.TEST_PAPERSPACE_DIALECT === 'v1';
const BILLING = onV1 ? '' : ' billingType=hourly';
const SAM = USERS.sam.slackId;
const MAYA = USERS.maya.slackId;
const CHANNEL = 'C0IDLE';

const bot = useTestBot({
  now: clock.now,
  emulator: { now: clock.now, transitionMs: 2000 },
  prepare: async (started) => {
    await started.link('ada');
    await started.link('maya', { withAccessToken: true });
  },
});

async function command(text: string, userId: string) {
  const request = bot.requests.slashCommand({ text, userId, channelId: CHANNEL });
  await bot.send(request);
  return messageText(await bot.slack.waitForResponse(request.responseUrlId ?? ''));
}

const timeoutOf = (name: string) => bot.emulator.state.machineByName(name)?.shutdownTimeoutInHours;

const auditedIdle = async () =>
  (await bot.store.audit.list({ teamId: bot.slack.teamId, limit: 100 })).filter(
    (record) => record.action === 'policy.idle',
  );

describe('/ps policy idle', () => {
  it("sets Paperspace's timeout on the team's machines with their owners' keys and names the ones it could not", async () => {
    if (onV1) {
      // v1 names no owner: Maya's machines are hers by claim; sam-desktop is assigned to Sam, who has
      // linked no key; the rest have no owner yet.
      expect(await command('claim maya-trainer', MAYA)).toContain('is yours now');
      expect(await command('claim team-build', MAYA)).toContain('is yours now');
      expect(await command(`assign sam-desktop <@${SAM}|sam>`, MAYA)).toContain('’s now');
    }
    const before = timeoutOf('sam-desktop');

    const refused = await command('policy idle 2h', SAM);
    expect(refused).not.toContain('✅');
    expect(timeoutOf('maya-trainer')).not.toBe(2);

    const told = await command('policy idle 2h', MAYA);
    expect(told).toContain("Paperspace now shuts down your team's machines after 2 h with nobody logged in");
    expect(told).toMatch(/Set with their owners' keys on 2 machines: .*maya-trainer/);
    expect(told).toContain('• *sam-desktop*: its owner has not linked a Paperspace key here.');
    if (onV1) expect(told).toContain('• *sam-cad*: it has no owner yet');
    expect(timeoutOf('maya-trainer')).toBe(2);
    expect(timeoutOf('team-build')).toBe(2);
    expect(timeoutOf('sam-desktop')).toBe(before);

    const audited = await auditedIdle();
    expect(audited.map((record) => record.resourceId).sort()).toEqual(['psorb001', 'psorb002']);
    expect(audited.every((record) => record.userId === MAYA && record.outcome === 'ok')).toBe(true);

    expect(await command('policy', MAYA)).toContain('Idle timeout: *2 h* with nobody logged in');
  });

  it("names a machine whose owner's key Paperspace refused, and audits the refusal", async () => {
    bot.emulator.state.failNextRequests({
      count: 1,
      status: 403,
      path: onV1 ? '/v1/machines/psorb002' : '/machines/psorb002/updateMachinePublic',
    });
    const told = await command('policy idle 5h', MAYA);
    expect(told).toContain("• *team-build*: Paperspace refused its owner's key.");
    expect(timeoutOf('maya-trainer')).toBe(5);
    expect(timeoutOf('team-build')).not.toBe(5);
    const refused = (await auditedIdle()).filter((record) => record.resourceId === 'psorb002');
    expect(refused[0]?.outcome).toBe('error');
  });

  it('linking a key on a team with an idle rule says the timeout may be set with that key', async () => {
    await command('policy idle 2h', MAYA);
    expect(await samLinksAndReadsNotice(bot)).toContain(
      "The team's 2 h idle timeout may be set on your machines with this key",
    );
  });

  it('a machine created through the bot gets the timeout; after `idle off` a new one does not', async () => {
    await command('policy idle 3h', MAYA);
    const create = (name: string) =>
      bot.send(
        bot.requests.slashCommand({
          text: `create machineName=${name} region=${onV1 ? 'ny2' : 'CA1'} machineType=C4 size=50${BILLING} templateId=t04azgph`,
          userId: MAYA,
          channelId: CHANNEL,
        }),
      );
    await create('idle-box');
    await expect.poll(() => timeoutOf('idle-box')).toBe(3);
    const notes = () =>
      bot.slack
        .allResponses()
        .map((post) => messageText(post))
        .concat(bot.slack.calls().map((call) => messageText(call.args)));
    await expect
      .poll(() => notes().some((text) => text.includes("Your team's idle rule is set on *idle-box*")))
      .toBe(true);
    expect((await auditedIdle()).some((record) => record.message?.includes('on create'))).toBe(true);

    expect(await command('policy idle off', MAYA)).toContain('Your team has no idle rule now');
    await create('plain-box');
    await expect.poll(() => bot.emulator.state.machineByName('plain-box')).toBeDefined();
    expect(timeoutOf('plain-box')).toBeNull();
    expect(await command('policy', MAYA)).not.toContain('Idle timeout');
  });

  it('refuses a timeout Paperspace cannot take, in words', async () => {
    const request = bot.requests.slashCommand({ text: 'policy idle 90m', userId: MAYA, channelId: CHANNEL });
    const answer = await bot.send(request);
    expect(JSON.stringify(answer.body)).toContain('Paperspace takes whole hours, from 1h');
  });
});
