// Whatever the API sends (names of any length and content, unknown states, nulls), every builder's
// output stays within Block Kit limits and no machine name becomes a live mention or link.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { homeView } from '../../src/features/home/blocks/home.js';
import { destroyMachineModal } from '../../src/features/machines/blocks/destroy-machine-modal.js';
import { machineCard, machineCardMessage } from '../../src/features/machines/blocks/machine-card.js';
import { machineList } from '../../src/features/machines/blocks/machine-list.js';
import { updateMachineModal } from '../../src/features/machines/blocks/update-machine-modal.js';
import { reminderMessage } from '../../src/features/reminders/blocks/reminder.js';
import {
  accessorShareConfirmation,
  accessorSharePost,
} from '../../src/features/shares/blocks/accessor-share.js';
import { sharePending, sharePost } from '../../src/features/shares/blocks/share.js';
import type { Machine } from '../../src/paperspace/schemas.js';
import { escapeMrkdwn } from '../../src/slack/block-kit/text.js';
import { machineFixture } from '../slack/block-kit/fixtures.js';
import { mrkdwnTexts } from '../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../slack/block-kit/limits.js';

const hostileText = fc.oneof(
  fc.string({ maxLength: 40 }),
  fc.string({ unit: 'grapheme', maxLength: 400 }),
  fc.constantFrom('<!channel>', '<!here|here>', '<@U1>', '&amp;<>', '<https://evil.example|x>', '*_~`'),
  fc.string({ unit: fc.constantFrom('<', '>', '&', '!', '@', 'a', '🟢'), minLength: 2000, maxLength: 6000 }),
);

const byteCount = fc.option(fc.oneof(fc.nat().map(String), fc.constant('garbage')), { nil: null });

const machineArbitrary: fc.Arbitrary<Machine> = fc
  .record({
    id: fc.stringMatching(/^ps[a-z0-9]{1,12}$/),
    name: hostileText.filter((name) => name.trim() !== ''),
    state: fc.oneof(fc.constantFrom('off', 'ready', 'starting', 'stopping', 'serviceready'), hostileText),
    os: fc.option(hostileText, { nil: null }),
    gpu: fc.option(hostileText, { nil: null }),
    region: fc.option(hostileText, { nil: null }),
    machineType: hostileText,
    ram: byteCount,
    storageTotal: byteCount,
    storageUsed: byteCount,
    publicIpAddress: fc.option(hostileText, { nil: null }),
  })
  .map((fields) => machineFixture(fields));

/** No mention, broadcast or link of the attacker's making survives into mrkdwn. */
function assertInert(blocks: readonly unknown[]): void {
  expect(mrkdwnTexts(blocks).join('\n')).not.toMatch(/<(!channel|!here|@U1|https:\/\/evil)/);
}

describe('builders under hostile API data', () => {
  it('keep machine cards, lists, home, reminders and shares within limits and inert', () => {
    fc.assert(
      fc.property(fc.uniqueArray(machineArbitrary, { selector: (m) => m.id, maxLength: 30 }), (machines) => {
        for (const machine of machines) {
          for (const compact of [false, true]) {
            const blocks = machineCard(machine, { compact, timeline: [{ state: machine.state, at: 0 }] });
            assertBlockKitLimits(blocks);
            assertInert(blocks);
          }
          assertBlockKitLimits(machineCardMessage(machine));
          assertBlockKitLimits(updateMachineModal(machine));
          const destroy = destroyMachineModal(machine);
          assertBlockKitLimits(destroy);
          assertInert(destroy.blocks);
        }
        const list = machineList(machines, { page: 2, filters: { state: 'ready' } });
        assertBlockKitLimits(list);
        assertInert(list.blocks);
        assertBlockKitLimits(homeView({ linked: { maskedKey: '••••1234', account: 'a' }, machines }));
        const reminder = reminderMessage(machines);
        assertBlockKitLimits(reminder);
        assertInert(reminder.blocks);
        if (machines.length > 0) {
          const post = { shareId: 'share-1', sharerUserId: 'U2', machines, delegationId: 1, expiresAt: 0 };
          const live = { shareId: 'share-1', sharerUserId: 'U2', machines, grants: [], expiresAt: 0 };
          const shareMessages = [
            accessorShareConfirmation({
              sharerUserId: 'U2',
              channel: 'C1',
              machines,
              with: ['U3'],
              expiresAt: 0,
              rights: 'use',
            }),
            sharePending('U2', machines),
            accessorSharePost(live),
            sharePost({ ...post, over: { kind: 'expired' } }),
            sharePost({ ...post, over: { kind: 'ended', endedAt: 0 } }),
          ];
          for (const share of shareMessages) {
            assertBlockKitLimits(share);
            assertInert(share.blocks);
          }
        }
      }),
      // Shrinking arrays of kilobyte-long strings takes minutes; the first counterexample is reported as found.
      { numRuns: 60, endOnFailure: true },
    );
  });

  it('show a name with formatting characters as typed, never bold, italic or struck through', () => {
    const formattedName = fc
      .array(fc.constantFrom('*', '_', '~', '`', 'a', 'b', ' ', '<', '&'), { minLength: 1, maxLength: 30 })
      .filter((chars) => chars.some((char) => '*_~`'.includes(char)))
      // The marks make the name findable among the card's other texts.
      .map((chars) => `Ω${chars.join('')}Ω`);
    fc.assert(
      fc.property(formattedName, (name) => {
        const machine = machineFixture({ id: 'ps1', name });
        const post = { shareId: 's', sharerUserId: 'U2', machines: [machine], grants: [], expiresAt: 0 };
        const shown = [
          machineCard(machine, { compact: false, timeline: [] }),
          machineCard(machine, { compact: true, timeline: [] }),
          reminderMessage([machine]).blocks,
          accessorSharePost(post).blocks,
          sharePending('U2', [machine]).blocks,
          destroyMachineModal(machine).blocks,
        ];
        const literal = `\`${escapeMrkdwn(name).replace(/`/g, 'ˋ')}\``;
        // The full card names the machine in its (plain text) header; every mrkdwn mention is checked.
        const texts = shown.flatMap((blocks) => mrkdwnTexts(blocks)).filter((text) => text.includes('Ω'));
        expect(texts.length).toBeGreaterThanOrEqual(shown.length - 1);
        for (const text of texts) expect(text).toContain(literal);
      }),
    );
  });
});
