// People name a reminder by what `/ps reminders` shows them, its number or its time, never by an id:
// no reminder message shows one, and an old short id still works for those who learned it.
import { describe, expect, it } from 'vitest';
import { createFakeClock } from '../../../tools/emulator/index.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';

// Wednesday 2024-05-15, 09:00 UTC. The test users' Slack time zone is Europe/Amsterdam (UTC+2 in May).
const clock = createFakeClock(Date.parse('2024-05-15T09:00:00Z'));
const ada = () => ({ teamId: bot.slack.teamId, userId: USERS.ada.slackId });

const bot = useTestBot({ now: clock.now, emulator: { now: clock.now }, linked: ['ada'] });

/** Everything ada was answered, to check afterwards that no reminder's id was ever shown. */
const answered: string[] = [];

async function command(text: string) {
  const request = bot.requests.slashCommand({ text, userId: USERS.ada.slackId });
  await bot.send(request);
  const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
  answered.push(JSON.stringify(reply));
  return reply;
}

/** The numbered lines of `/ps reminders`, without their next times. */
async function listed(): Promise<string[]> {
  const reply = await command('reminders');
  const section = (reply.blocks as { type: string; text?: { text: string } }[]).find(
    (block) => block.type === 'section',
  );
  return (section?.text?.text ?? '').split('\n').map((line) => line.replace(/ · next .*$/, ''));
}

const stored = async () =>
  (await bot.store.reminders.listByUser(ada())).map((reminder) => reminder.cron).sort();

describe('reminders named by their number or their time', () => {
  it('are numbered in the list by their time of day, then by when they were made', async () => {
    const set = await command('remind 19:00');
    expect(set.text).toContain('⏰ Reminder set: weekdays at 19:00 (Europe/Amsterdam).');
    clock.advance(60_000);
    await command('remind 08:00 mon,wed');
    clock.advance(60_000);
    await command('remind 7pm sat,sun');

    // At 11:00 in Amsterdam the 08:00 one fires next on Monday, after the others, and still comes
    // first: numbers do not move each time a reminder fires.
    expect(await listed()).toEqual([
      '1. At 08:00 on Monday and Wednesday (Europe/Amsterdam)',
      '2. Weekdays at 19:00 (Europe/Amsterdam)',
      '3. At 19:00 on Saturday and Sunday (Europe/Amsterdam)',
    ]);
  });

  it('name the reminder one already has by its time and days', async () => {
    const again = await command('remind 7pm weekdays');
    expect(again.text).toBe(
      '❌ You already have this reminder: weekdays at 19:00 (Europe/Amsterdam). `/ps reminders` lists yours.',
    );
  });

  it('ask for the number when a time matches two of them, and turn none off', async () => {
    const reply = await command('remind off 19:00');
    expect(reply.text).toBe(
      [
        '❌ You have 2 reminders at 19:00:',
        '2. weekdays at 19:00 (Europe/Amsterdam)',
        '3. at 19:00 on Saturday and Sunday (Europe/Amsterdam)',
        'Say which by its number: `/ps remind off 2` or `/ps remind off 3`.',
      ].join('\n'),
    );
    expect(await stored()).toHaveLength(3);
  });

  it('say so, pointing to the list, for a number out of range or a time with no reminder', async () => {
    expect((await command('remind off 4')).text).toBe(
      '❌ You have no reminder 4: you have 3 reminders. `/ps reminders` lists yours with their numbers.',
    );
    expect((await command('remind off 9pm')).text).toBe(
      '❌ You have no reminder at 21:00. `/ps reminders` lists yours with their numbers.',
    );
    expect((await command('remind off soon')).text).toContain('"soon" is not one of your reminders');
    expect(await stored()).toHaveLength(3);
  });

  it('turn off the one with that number, and say which by its time and days', async () => {
    const reply = await command('remind off 1');
    expect(reply.text).toBe('Turned off your reminder at 08:00 on Monday and Wednesday (Europe/Amsterdam).');
    expect(await stored()).toEqual(['0 19 * * 1-5', '0 19 * * sat,sun']);
    expect(await listed()).toEqual([
      '1. Weekdays at 19:00 (Europe/Amsterdam)',
      '2. At 19:00 on Saturday and Sunday (Europe/Amsterdam)',
    ]);
  });

  it('turn off the only one at a time, read as /ps remind reads it', async () => {
    await command('remind 06:45 daily');
    const reply = await command('remind off 6:45am');
    expect(reply.text).toBe('Turned off your reminder every day at 06:45 (Europe/Amsterdam).');
    expect(await stored()).toEqual(['0 19 * * 1-5', '0 19 * * sat,sun']);
  });

  it('still take an old short id, quietly', async () => {
    const weekend = (await bot.store.reminders.listByUser(ada())).find((reminder) =>
      reminder.cron.endsWith('sat,sun'),
    );
    const reply = await command(`remind off ${weekend?.id.slice(0, 8)}`);
    expect(reply.text).toBe('Turned off your reminder at 19:00 on Saturday and Sunday (Europe/Amsterdam).');
    expect(await stored()).toEqual(['0 19 * * 1-5']);
  });

  it('never show a reminder id in any answer', async () => {
    await command('remind off');
    expect(await stored()).toEqual([]);
    const ids = (await bot.store.audit.list({ ...ada(), limit: 100 }))
      .filter((record) => record.action === 'reminder.create')
      .flatMap((record) => record.resourceId ?? []);
    expect(ids).toHaveLength(4);
    for (const id of ids) {
      for (const answer of answered) expect(answer).not.toContain(id.slice(0, 8));
    }
    for (const answer of answered) expect(answer).not.toMatch(/\bid\b/i);
  });
});
