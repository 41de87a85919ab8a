// `/ps list owner=@sam`: an administrator filters the team's machines by the person who owns them, by
// Slack mention or by name; where Paperspace names no owner (API v1) by the bot's owner rule. Someone
// outside the team is said to be so. Through signed requests, the strict fake Slack and the emulator.
import { describe, expect, it } from 'vitest';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { textOf } from '../machines/machine-kit.js';

const MAYA = USERS.maya.slackId;
const SAM = USERS.sam.slackId;
const SAMS = ['sam-desktop', 'sam-dev', 'sam-cad'];

const bot = useTestBot({ linked: ['maya', 'sam'] });
const v1 = useTestBot({ dialect: 'v1', linked: ['maya', 'sam'] });

async function list(on: typeof bot, text: string) {
  const request = on.requests.slashCommand({ text, userId: MAYA });
  const ack = await on.send(request);
  const body = JSON.stringify(ack.body ?? '');
  if (body.includes('Usage') || body.includes('Unknown')) return body;
  const reply = await on.slack.waitForResponse(request.responseUrlId ?? '');
  return `${reply.text ?? ''}${textOf(reply.blocks)}`;
}

describe('/ps list owner=', () => {
  it("lists only the mentioned person's machines, and says whose filter is in force", async () => {
    const shown = await list(bot, `list owner=<@${SAM}|sam>`);
    for (const name of SAMS) expect(shown).toContain(name);
    expect(shown).not.toContain('maya-trainer');
    // The person is drawn as a mention, not printed as raw text in a code span.
    expect(shown).toContain(`\`owner=\`<@${SAM}>`);
  });

  it('takes a name or an e-mail as well, and says when nobody has that name', async () => {
    const byName = await list(bot, 'list owner=Sam');
    for (const name of SAMS) expect(byName).toContain(name);
    expect(byName).not.toContain('maya-trainer');
    const byEmail = await list(bot, 'list owner=maya.chen@orbital.example');
    expect(byEmail).toContain('maya-trainer');
    expect(byEmail).not.toContain('sam-dev');
    expect(await list(bot, 'list owner=Nobody')).toContain(
      'No Paperspace user your key can see is called Nobody',
    );
  });

  it('says the person mentioned is not in the team by the e-mail on their Slack profile, before they link a key', async () => {
    // On v1 an empty list would otherwise read as if Ada simply owned nothing (issue 45).
    for (const on of [bot, v1]) {
      const shown = await list(on, `list owner=<@${USERS.ada.slackId}|ada>`);
      expect(shown).toContain(
        'Ada Park is not in your Paperspace team: none of the users your key can see has ada.park@example.com',
      );
      expect(shown).not.toMatch(/No machines match|<@U/);
    }
  });

  it('says the person mentioned is not in the team when they linked an outsider’s key', async () => {
    await bot.link('ada');
    const shown = await list(bot, `list owner=<@${USERS.ada.slackId}|ada>`);
    expect(shown).toContain('The person you mentioned is not in your Paperspace team');
    expect(shown).not.toContain('&lt;@');
  });
});

describe('/ps list owner= on API v1, which names no owner: the bot’s owner rule decides', () => {
  it('lists none of Sam’s until he claims one, then that one alone', async () => {
    expect(await list(v1, `list owner=<@${SAM}|sam>`)).toContain('No machines match');
    const claim = v1.requests.slashCommand({ text: 'claim sam-dev', userId: SAM });
    await v1.send(claim);
    expect((await v1.slack.waitForResponse(claim.responseUrlId ?? '')).text).toContain('is yours now');
    const shown = await list(v1, `list owner=<@${SAM}|sam>`);
    expect(shown).toContain('sam-dev');
    expect(shown).not.toContain('sam-desktop');
    expect(shown).not.toContain('maya-trainer');
    // By name too: Sam's recorded owner carries the Paperspace user his key belongs to.
    const byName = await list(v1, 'list owner=Sam');
    expect(byName).toContain('sam-dev');
    expect(byName).not.toContain('sam-cad');
  });

  it('says an outsider is not in the team rather than listing nothing', async () => {
    await v1.link('ada');
    const shown = await list(v1, `list owner=<@${USERS.ada.slackId}|ada>`);
    expect(shown).toContain('The person you mentioned is not in your Paperspace team');
  });
});
