// `/ps list owner=@sam`: an administrator filters the team's machines by the person who owns them, by
// Slack mention or by name; where Paperspace names no owner (API v1) the person is told so. Through
// signed requests, the strict fake Slack and the emulator.
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
    expect(shown).toContain(`owner=&lt;@${SAM}&gt;`);
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

  it('says who must link a key when the person mentioned is unknown to the bot', async () => {
    const shown = await list(bot, `list owner=<@${USERS.ada.slackId}|ada>`);
    expect(shown).toContain('The person you mentioned has not linked a Paperspace key');
  });

  it('says plainly on API v1 that machines name no owner, instead of an unfiltered list', async () => {
    const shown = await list(v1, `list owner=<@${SAM}|sam>`);
    expect(shown).toContain("Paperspace's API v1 does not say who owns a machine");
    expect(shown).not.toContain('sam-dev');
  });
});
