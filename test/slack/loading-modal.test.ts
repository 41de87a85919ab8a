import { describe, expect, it } from 'vitest';
import { modal, note } from '../../src/slack/block-kit/modal-kit.js';
import type { SlackMessage } from '../../src/slack/block-kit/text.js';
import { openLoadingModal } from '../../src/slack/loading-modal.js';
import { captureLogs } from '../support/log-capture.js';
import { useFakeSlack } from '../support/use-fake-slack.js';

const fake = useFakeSlack();

const form = modal({ callbackId: 'the_form', title: 'The form', blocks: [note('Fill me in')] });

/** What the person was told privately, oldest first. */
let told: SlackMessage[] = [];
// A trigger_id as Slack sends one with the click: the fake takes only those, once, within 3 s.
let triggerId = '';

function open(build: () => Promise<typeof form>, logs = captureLogs()) {
  told = [];
  triggerId = fake.slack.issueTrigger();
  return openLoadingModal(
    {
      web: fake.web,
      triggerId,
      deps: { logger: logs.logger },
      replyPrivately: async (message) => void told.push(message),
    },
    {
      title: 'The form',
      loading: 'Loading the machines…',
      build,
    },
  );
}

describe('openLoadingModal', () => {
  it('opens "Loading…" with the trigger at once, then puts the form in its place', async () => {
    await open(async () => form);
    const [opened] = fake.slack.calls('views.open');
    expect(opened?.args.trigger_id).toBe(triggerId);
    expect(JSON.stringify(opened?.args.view)).toContain('Loading the machines…');
    const [filled] = fake.slack.calls('views.update');
    expect((filled?.args.view as { callback_id?: string } | undefined)?.callback_id).toBe('the_form');
  });

  it('is quiet when the person closed the loading modal before the form arrived', async () => {
    // The catalog's copy rethrew this, and the person who closed the modal was told something failed.
    fake.slack.fail('views.update', 'not_found');
    await expect(open(async () => form)).resolves.toBeUndefined();
  });

  it('names a Slack refusal as one, with a reference, in place of the form', async () => {
    // The catalog's copy called every non-Paperspace failure "something went wrong on our side".
    fake.slack.fail('chat.postMessage', 'channel_not_found');
    await open(async () => {
      await fake.web.chat.postMessage({ channel: 'C-gone', text: 'x' });
      return form;
    });
    const [filled] = fake.slack.calls('views.update');
    expect(JSON.stringify(filled?.args.view)).toContain('Slack refused one of my messages');
  });

  it.each([
    ['expired_trigger_id', /3 seconds .* Click the button or run the command again/],
    ['exchanged_trigger_id', /used already/],
  ])(
    'tells the person what to do when Slack refuses the trigger (%s), and builds nothing',
    async (code, said) => {
      fake.slack.fail('views.open', code);
      let built = false;
      await open(async () => {
        built = true;
        return form;
      });
      expect(told.map((message) => message.text)).toEqual([expect.stringMatching(said)]);
      expect(built).toBe(false);
      expect(fake.slack.calls('views.update')).toEqual([]);
    },
  );
});
