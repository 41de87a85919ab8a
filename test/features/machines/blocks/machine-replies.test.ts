import { describe, expect, it } from 'vitest';
import {
  accessChangedMessage,
  destroyedMessage,
  powerRequestedNotice,
  powerUnchangedMessage,
} from '../../../../src/features/machines/blocks/machine-replies.js';
import { MALICIOUS_NAME, machineFixture } from '../../../slack/block-kit/fixtures.js';

function mrkdwnTexts(value: unknown): string[] {
  if (Array.isArray(value)) return value.flatMap(mrkdwnTexts);
  if (typeof value !== 'object' || value === null) return [];
  const record = value as Record<string, unknown>;
  const own = record.type === 'mrkdwn' && typeof record.text === 'string' ? [record.text] : [];
  return [...own, ...Object.values(record).flatMap(mrkdwnTexts)];
}

describe('machine replies', () => {
  it('names who asked for a power change with a live mention', () => {
    expect(powerRequestedNotice('start', 'U1')).toBe('🟡 Starting… requested by <@U1>');
    expect(powerRequestedNotice('stop', 'U1')).toBe('🟤 Stopping… requested by <@U1>');
  });

  it('keeps machine names inert wherever they appear', () => {
    const machine = machineFixture({ name: MALICIOUS_NAME, state: 'off' });
    for (const message of [
      destroyedMessage(MALICIOUS_NAME, 'U1'),
      powerUnchangedMessage(machine, 'already_off'),
      accessChangedMessage(MALICIOUS_NAME, { paperspaceUserId: 'u1' }, true),
    ]) {
      // Plain text (the card's header) cannot mention anyone; mrkdwn and the notification text can.
      const rendered = [message.text, ...mrkdwnTexts(message.blocks)].join('\n');
      expect(rendered).not.toContain('<!channel>');
      expect(rendered).not.toContain('<https://evil');
    }
  });

  it('says why nothing was done and offers the card with what can be done instead', () => {
    const message = powerUnchangedMessage(
      machineFixture({ name: 'gpu-1', state: 'off' }),
      'off_cannot_restart',
    );
    expect(message.text).toContain('*gpu-1* is off, so there is nothing to restart');
    expect(JSON.stringify(message.blocks)).toContain('machine_start');
  });
});
