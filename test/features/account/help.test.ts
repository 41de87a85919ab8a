// /ps help through signed slash commands: a short help grouped by what people come to do, and for
// each command its parameters, examples and what happens.
import { describe, expect, it } from 'vitest';
import { visibleText } from '../../slack/block-kit/inspect.js';
import { COMMANDS } from '../../support/commands.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

const bot = useTestBot();

async function help(text: string) {
  const request = bot.requests.slashCommand({ text, userId: USERS.sam.slackId });
  await bot.send(request);
  const answer = await bot.slack.waitForResponse(request.responseUrlId ?? '');
  return visibleText(answer.blocks as Parameters<typeof visibleText>[0]);
}

describe('/ps help', () => {
  it('is short, grouped by what a person wants to do, and names every command', async () => {
    const text = await help('help');
    expect(text.split('\n').length).toBeLessThanOrEqual(25);
    const titles = [
      '*Machines*',
      '*Waiting and reminders*',
      '*Sharing*',
      '*Cost*',
      '*Team*',
      '*Your account*',
    ];
    const positions = titles.map((title) => text.indexOf(title));
    expect(positions.every((position) => position >= 0)).toBe(true);
    expect([...positions].sort((a, b) => a - b)).toEqual(positions);
    for (const spec of COMMANDS) {
      const word = spec.name.split(' ')[0] ?? spec.name;
      expect(text, `the short help leaves out /ps ${word}`).toMatch(new RegExp(`/ps (\\w+\\|)*${word}\\b`));
    }
    expect(text).toContain('/ps help &lt;command&gt;');
  });

  it('explains one command with its parameters, examples and what happens', async () => {
    const digest = await help('help digest');
    expect(digest).toContain('*Parameters*');
    expect(digest).toContain('`/ps digest #ops daily 09:00`');
    expect(digest).toContain('*What happens*');
    expect(digest).toContain('Only Slack workspace admins and owners may change it');
    expect(digest).not.toContain('/ps digest off');
    // A group: each of its commands in detail.
    const script = await help('help script');
    expect(script).toContain('`/ps script show scr123`');
    expect(script).toContain('`/ps script delete scr123`');
  });

  it('says something different for every command', async () => {
    const answers = new Map<string, string>();
    for (const spec of COMMANDS) {
      const text = await help(`help ${spec.name}`);
      // A group topic (script, drive) shows all its commands: compare the one section of this command.
      const own = text
        .split('\n*`')
        .find((part) => part.includes(spec.usage.replace(/</g, '&lt;').replace(/>/g, '&gt;')));
      expect(own, `/ps help ${spec.name}`).toContain('*Examples*');
      expect([...answers.values()], `/ps help ${spec.name} repeats another command's`).not.toContain(own);
      answers.set(spec.name, own ?? '');
    }
  });
});
