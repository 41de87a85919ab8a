import { describe, expect, it } from 'vitest';
import {
  deletedNotice,
  driveDeleteConfirmation,
  scriptDeleteConfirmation,
  scriptDetailMessage,
  scriptTextMessage,
} from '../../../../src/features/catalog/blocks/catalog.js';
import type { Script } from '../../../../src/paperspace/schemas.js';
import { blockTextLength, MESSAGE_BUDGET } from '../../../../src/slack/block-kit/message-budget.js';
import { ActionId } from '../../../../src/slack/ids.js';
import { buttonByAction, mrkdwnTexts, visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';
import { assertFitsSlack } from '../../../support/fits-slack.js';

const script: Script = {
  id: 'scr1a2b',
  ownerType: 'team',
  ownerId: 'te9xk1',
  name: 'install <!channel> drivers',
  description: 'Installs & configures',
  dtCreated: '2024-01-02T03:04:05.000Z',
  isEnabled: true,
  runOnce: false,
  machines: [
    { machineId: 'ps1', dtLastRun: null },
    { machineId: 'ps2', dtLastRun: null },
  ],
};

/** The code inside each fenced section, in order. */
function codeSections(blocks: readonly unknown[]): string[] {
  return mrkdwnTexts(blocks)
    .filter((text) => text.startsWith('```'))
    .map((text) => text.slice(3, -3));
}

describe('scriptDetailMessage', () => {
  it('shows the script with its machines, its names escaped', () => {
    const message = scriptDetailMessage(script);
    assertBlockKitLimits(message);
    const text = visibleText(message.blocks);
    expect(text).toContain('*install &lt;!channel&gt; drivers*');
    expect(text).toContain('Installs &amp; configures');
    expect(text).toContain('Runs on 2 machines: `ps1`, `ps2`');
    expect(text).toContain('runs on every boot');
  });

  it('says when the script runs on no machine', () => {
    expect(visibleText(scriptDetailMessage({ ...script, machines: [] }).blocks)).toContain(
      'Not assigned to any machine',
    );
  });
});

describe('scriptTextMessage', () => {
  it('shows a short text whole, in one code block, escaped', () => {
    const message = scriptTextMessage(script, 'echo "<hi>" && exit 0\n');
    assertBlockKitLimits(message);
    expect(codeSections(message.blocks)).toEqual(['echo "&lt;hi&gt;" &amp;&amp; exit 0\n']);
  });

  it('keeps three backticks in the script from closing the code block', () => {
    const message = scriptTextMessage(script, 'cat <<EOF\n```\nEOF\n');
    const [code] = codeSections(message.blocks);
    expect(code).not.toContain('```');
    expect(code?.replaceAll('\u200b', '')).toContain('```');
  });

  it('splits a long text at line ends into sections Slack accepts, and all of it shows', () => {
    // About 6,300 characters escaped: three sections, and within what one message holds (the 400 lines
    // this once had escape to over 18,000, more than Slack takes in one message).
    const text = Array.from({ length: 150 }, (_, i) => `echo line-${i} >> /var/log/setup.log`).join('\n');
    const message = scriptTextMessage(script, text);
    assertFitsSlack(message);
    const sections = codeSections(message.blocks);
    expect(sections.length).toBeGreaterThan(1);
    expect(sections.join('')).toBe(text.replaceAll('>', '&gt;'));
    for (const section of sections.slice(0, -1)) expect(section.endsWith('\n')).toBe(true);
    expect(visibleText(message.blocks)).not.toContain('Cut after');
  });

  it('cuts a text longer than one message holds, never inside an escape, and says so', () => {
    const text = '&'.repeat(16_000);
    const message = scriptTextMessage(script, text);
    // Within the summed block text Slack takes (msg_blocks_too_long), with as many sections as fit:
    // one more would pass the budget.
    assertFitsSlack(message);
    const sections = codeSections(message.blocks);
    expect(sections.length).toBeGreaterThan(1);
    const nextSection = '```'.length * 2 + (sections[0]?.length ?? 0);
    expect(blockTextLength(message.blocks) + nextSection).toBeGreaterThan(MESSAGE_BUDGET.text);
    for (const section of sections) expect(section).toMatch(/^(&amp;)+$/);
    expect(visibleText(message.blocks)).toMatch(
      /Cut after \d+ of 80000 characters: the script \(16000 bytes\)/,
    );
  });

  it('says so when a script has no text', () => {
    expect(visibleText(scriptTextMessage(script, '  \n').blocks)).toContain('has no text');
  });
});

describe('delete confirmations', () => {
  it('ask before deleting a script, with a red Delete button behind a confirm dialog', () => {
    const message = scriptDeleteConfirmation(script);
    assertBlockKitLimits(message);
    expect(visibleText(message.blocks)).toContain('removed at once from the 2 machines');
    const button = buttonByAction(message.blocks, ActionId.scriptDelete);
    expect(button).toMatchObject({ value: 'scr1a2b', style: 'danger', confirm: { style: 'danger' } });
    expect(button?.confirm?.text.text).toContain('cannot be undone');
  });

  it('ask before deleting a drive, saying its data is lost', () => {
    const message = driveDeleteConfirmation({
      id: 'sd1',
      name: 'datasets',
      size: 500 * 1024 ** 3,
      region: { name: 'Europe (AMS1)' },
    });
    assertBlockKitLimits(message);
    expect(visibleText(message.blocks)).toContain('*datasets* (`sd1`, 500 GiB, Europe (AMS1))');
    expect(visibleText(message.blocks)).toContain('Everything stored on it is lost');
    expect(buttonByAction(message.blocks, ActionId.driveDelete)?.value).toBe('sd1');
  });

  it('are replaced by a notice naming what was deleted', () => {
    expect(deletedNotice('shared drive', 'sd1').text).toBe('🗑️ Deleted shared drive `sd1`.');
  });
});
