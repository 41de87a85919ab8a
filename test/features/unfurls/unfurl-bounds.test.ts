// What one message's links may cost: each machine read once however many links name it, its rate once
// per type, a few machines per message, links longer than a console URL never parsed nor sent to
// Slack, an event without links ignored.
import { describe, expect, it } from 'vitest';
import {
  consoleMachineLinks,
  MAX_MACHINES_PER_MESSAGE,
} from '../../../src/features/unfurls/console-links.js';
import { logMark, pathsSince } from '../../support/paperspace-calls.js';
import { USERS } from '../../support/test-bot.js';
import { useTestBot } from '../../support/use-test-bot.js';
import { addSpareMachine, settle, textOf } from '../machines/machine-kit.js';

const CHANNEL = 'C0OPS';
const bot = useTestBot({ linked: ['ada'] });
const link = (id: string, tab = '') => `https://console.paperspace.com/t7k2ab9x/machines/${id}${tab}`;

describe('the links of one message', () => {
  it('groups links by machine, keeps the first few machines, and skips what is too long to be a console URL', () => {
    const ids = Array.from({ length: 10 }, (_, index) => `psmach${index}`);
    const links = ids.flatMap((id) =>
      Array.from({ length: 10 }, (_, copy) => ({ url: link(id, copy ? '/settings' : '') })),
    );
    const grouped = consoleMachineLinks([{ url: link('psmach9', `/${'x'.repeat(100_000)}`) }, ...links]);
    expect(grouped.map((entry) => entry.machineId)).toEqual(ids.slice(0, MAX_MACHINES_PER_MESSAGE));
    expect(grouped[0]?.urls).toEqual([link('psmach0'), link('psmach0', '/settings')]);
    expect(consoleMachineLinks(undefined)).toEqual([]);
  });

  it('unfurls 100 links to 10 machines with at most one Paperspace request per machine, rates included', async () => {
    const machines = Array.from({ length: 10 }, () =>
      addSpareMachine(bot, { prefix: 'unfurl-many-', state: 'off', owner: USERS.ada.emulatorUserId }),
    );
    const urls = machines.flatMap((machine) => [
      link(machine.id),
      ...Array.from({ length: 9 }, (_, n) => link(machine.id, `/tab${n}`)),
    ]);
    const mark = logMark(bot.emulator.state);
    const event = bot.slack.unfurls.share({ channel: CHANNEL, user: USERS.ada.slackId, urls });
    expect((await bot.send(bot.requests.event(event))).status).toBe(200);
    const call = await bot.slack.waitFor('chat.unfurl');
    // Slack took every card: each unfurl's blocks pass a message's Block Kit rules.
    expect(call.answer).toEqual({ ok: true });
    const unfurled = Object.keys(call.args.unfurls as object);
    expect(unfurled).toHaveLength(MAX_MACHINES_PER_MESSAGE * 10);
    const shown = machines.slice(0, MAX_MACHINES_PER_MESSAGE).map((machine) => machine.id);
    expect(new Set(unfurled.map((url) => /machines\/(\w+)/.exec(url)?.[1]))).toEqual(new Set(shown));
    // Every card shows a rate, read from the account or labelled as the list price.
    expect(textOf(call.args.unfurls).match(/\/ h/g)?.length).toBeGreaterThanOrEqual(MAX_MACHINES_PER_MESSAGE);
    const requests = bot.emulator.state.requests().slice(mark);
    // The poster's role once, one read of each machine shown, and its type's rate once (none on v1,
    // whose machine carries it): never more than one request per machine the message links.
    expect(pathsSince(bot.emulator.state, mark).length).toBeLessThanOrEqual(machines.length);
    for (const id of shown) {
      const reads = requests.filter((request) => `${request.path}?${request.query}`.includes(id));
      expect(reads.length, id).toBeLessThanOrEqual(2);
    }
    for (const machine of machines.slice(MAX_MACHINES_PER_MESSAGE)) {
      expect(requests.some((request) => `${request.path}?${request.query}`.includes(machine.id))).toBe(false);
    }
  });

  it('keeps a 100 KB link away from chat.unfurl and still unfurls the console-sized link beside it', async () => {
    const ada = addSpareMachine(bot, { prefix: 'unfurl-long-', owner: USERS.ada.emulatorUserId });
    const long = link(ada.id, `/${'x'.repeat(100_000)}`);
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.ada.slackId,
      urls: [long, link(ada.id)],
    });
    expect((await bot.send(bot.requests.event(event))).status).toBe(200);
    const call = await bot.slack.waitFor('chat.unfurl');
    // Only the console-sized link reaches chat.unfurl: a 100 KB key is what stalled Slack's Web API
    // client (console-links.ts says why).
    expect(Object.keys(call.args.unfurls as object)).toEqual([link(ada.id)]);
  });

  it('ignores a link_shared event that carries no links, and keeps answering', async () => {
    const event = bot.slack.unfurls.share({
      channel: CHANNEL,
      user: USERS.ada.slackId,
      urls: [link('psada001')],
    });
    const { links: _none, ...withoutLinks } = event as typeof event & { links?: unknown };
    expect((await bot.send(bot.requests.event(withoutLinks as typeof event))).status).toBe(200);
    await settle();
    expect(bot.slack.calls('chat.unfurl')).toEqual([]);
    expect(bot.logText()).not.toContain('Slack request failed');
  });
});
