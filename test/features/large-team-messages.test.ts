// Every message built for a team of any size stays inside Slack's limits: the per-field ones from
// Block Kit's reference and the summed-text budget that keeps it clear of `msg_blocks_too_long`. What
// does not fit is counted in the message, with the command that shows it: nothing is silently dropped.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { requestListMessage } from '../../src/features/approvals/blocks/request-list.js';
import { costAlertMessage } from '../../src/features/cost-alerts/blocks/cost-alert.js';
import { homeView } from '../../src/features/home/blocks/home.js';
import { machineList } from '../../src/features/machines/blocks/machine-list.js';
import { machineIdFromBlockId } from '../../src/features/machines/blocks/machine-ref.js';
import { reminderMessage } from '../../src/features/reminders/blocks/reminder.js';
import { digestMessage, type RunningMachine } from '../../src/features/spend/blocks/digest.js';
import { spendMessage } from '../../src/features/spend/blocks/spend.js';
import type { Machine } from '../../src/paperspace/schemas.js';
import type { StoredRequest } from '../../src/store/approval-requests.js';
import { mrkdwnTexts, visibleText } from '../slack/block-kit/inspect.js';
import { assertFitsSlack } from '../support/fits-slack.js';
import { LARGE_TEAM, largeRunningMachines, largeSpendReport } from '../support/large-team.js';

const NOW = Date.UTC(2024, 4, 15, 12);
const RUNS = { numRuns: 25 };

/** How many machines a count line says were left out ("…and 97 more …"), or 0 without one. */
function leftOut(text: string): number {
  const match = /…and (\d+) more/.exec(text);
  return match ? Number(match[1]) : 0;
}

/** 50-character names drawn from the characters that grow when escaped, and mrkdwn's formatting ones. */
const nameArbitrary = fc
  .string({ unit: fc.constantFrom('&', '<', '>', 'a', '*', '_', ' ', '7'), minLength: 50, maxLength: 50 })
  .filter((name) => name.trim() !== '');

const machinesArbitrary = (max: number) =>
  fc.array(nameArbitrary, { maxLength: max }).map((names) =>
    largeRunningMachines(names.length).map((machine, index) => ({
      ...machine,
      name: names[index] ?? machine.name,
    })),
  );

const running = (machines: Machine[]): RunningMachine[] =>
  machines.map((machine, index) => ({
    machine,
    owner: `<@U${String(index % LARGE_TEAM.people).padStart(9, '0')}>`,
    since: NOW - (index + 1) * 3_600_000,
  }));

describe('messages for a large team', () => {
  it('the team digest of 60 people and 120 running machines fits, counting the machines and people it leaves out', () => {
    const machines = largeRunningMachines();
    const digest = digestMessage(running(machines), largeSpendReport(NOW), NOW);
    assertFitsSlack(digest);
    const rows = digest.blocks.filter((block) => block.block_id?.startsWith('digest:')).length;
    const text = visibleText(digest.blocks);
    expect(rows).toBeGreaterThan(10);
    expect(rows + leftOut(text)).toBe(LARGE_TEAM.machines);
    expect(text).toContain('`/ps list state=ready` shows them with their Stop buttons');
    expect(text).toMatch(/…and 50 more people, \$[\d.,]+ together: `\/ps spend` shows/);
    // The names are escaped, not cut mid-escape: no raw `<` from a name reaches mrkdwn.
    expect(mrkdwnTexts(digest.blocks).join('\n')).not.toContain('<gpu>');
  });

  it('the digest fits for any number of running machines and people', () => {
    fc.assert(
      fc.property(machinesArbitrary(200), fc.integer({ min: 1, max: 200 }), (machines, people) => {
        const digest = digestMessage(
          running(machines),
          largeSpendReport(NOW, people, Math.max(people, 1)),
          NOW,
        );
        assertFitsSlack(digest);
        const rows = digest.blocks.filter((block) => block.block_id?.startsWith('digest:')).length;
        expect(rows + leftOut(visibleText(digest.blocks.filter((block) => block.type === 'context')))).toBe(
          machines.length,
        );
      }),
      RUNS,
    );
  });

  it('/ps spend for 200 people fits, with the people left out counted and summed into the total', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 200 }), fc.integer({ min: 1, max: 3 }), (people, perPerson) => {
        const report = largeSpendReport(NOW, people, people * perPerson);
        const spend = spendMessage(report);
        assertFitsSlack(spend);
        const text = visibleText(spend.blocks);
        const listed = report.owners.filter((owner) =>
          text.includes(`<@${owner.people[0]?.slackUsers[0]?.userId}>`),
        ).length;
        expect(listed).toBeGreaterThan(0);
        if (listed < people) {
          const leftOut = people - listed;
          expect(text).toContain(`…and ${leftOut} more ${leftOut === 1 ? 'person' : 'people'}`);
          expect(text).toContain('*Next ▶* shows them');
        }
      }),
      RUNS,
    );
  });

  it('a reminder for up to 200 machines fits and says how many more still run', () => {
    fc.assert(
      fc.property(machinesArbitrary(200), (machines) => {
        const reminder = reminderMessage(machines);
        assertFitsSlack(reminder);
        if (machines.length === 0) return;
        const rows = reminder.blocks.filter((block) => block.block_id?.startsWith('reminder:')).length;
        const text = visibleText(reminder.blocks);
        expect(rows).toBeGreaterThan(0);
        expect(rows + leftOut(text)).toBe(machines.length);
        // The header counts every machine still running, not only the listed ones.
        expect(text).toContain(`⏰ ${machines.length} machine`);
      }),
      RUNS,
    );
  });

  it('every page of /ps list fits, and paging through shows every machine once', () => {
    fc.assert(
      fc.property(machinesArbitrary(120), fc.integer({ min: 1, max: 16 }), (machines, pageSize) => {
        if (machines.length === 0) return;
        const seen: string[] = [];
        for (let page = 1; page <= machines.length; page += 1) {
          const list = machineList(machines, { page, pageSize, filters: { state: 'ready' } });
          assertFitsSlack(list);
          const ids = list.blocks.flatMap((block) => {
            const id = block.type === 'actions' ? machineIdFromBlockId(block.block_id ?? '') : undefined;
            return id === undefined ? [] : [id];
          });
          seen.push(...ids);
          if (!list.blocks.some((block) => block.block_id === 'list_page_next')) break;
        }
        expect(seen).toEqual(machines.map((machine) => machine.id));
      }),
      { numRuns: 10 },
    );
  });

  it('the App Home fits for up to 200 machines and counts the ones it has no room for', () => {
    fc.assert(
      fc.property(machinesArbitrary(200), fc.boolean(), (machines, mixed) => {
        const home = homeView({
          linked: { maskedKey: '••••3f9a', account: 'ada@example.com' },
          machines,
          // A team key sees teammates' machines too: half of them are not the viewer's to power.
          buttons: (machine) => ({ power: !mixed || Number(machine.id.slice(2)) % 2 === 0, manage: true }),
        });
        assertFitsSlack(home);
        const cards = home.blocks.filter((block) => block.block_id?.startsWith('machine_actions:')).length;
        expect(cards + leftOut(visibleText(home.blocks))).toBe(machines.length);
      }),
      RUNS,
    );
  });

  it('a cost alert about a machine with a long, escaped name fits', () => {
    fc.assert(
      fc.property(nameArbitrary, (name) => {
        const alert = costAlertMessage({
          machine: { id: 'ps0000001', name, machineType: 'A100-80G' },
          runningSince: NOW - 9 * 3_600_000,
          sinceEstimated: true,
          now: NOW,
          hourlyRate: '3.09',
          thresholdMs: 6 * 3_600_000,
          dueAfterMs: 6 * 3_600_000,
        });
        assertFitsSlack(alert);
      }),
      RUNS,
    );
  });

  it('/ps requests with 120 open requests each way fits and counts the ones it does not list', () => {
    const requests = largeRunningMachines().map(
      (machine, index): StoredRequest => ({
        id: `req-${index}`,
        teamId: 'T0LARGE01',
        requesterId: `U${String(index % LARGE_TEAM.people).padStart(9, '0')}`,
        paperspaceTeamId: 'te7f3k2',
        kind: 'start' as const,
        machineId: machine.id,
        machineName: machine.name,
        ownerId: 'U000000001',
        details: {},
        channel: 'C0APPROVE',
        createdAt: NOW,
        expiresAt: NOW + 86_400_000,
        status: 'open',
        decidedBy: null,
        decidedAt: null,
        reason: null,
        messages: [],
      }),
    );
    const list = requestListMessage(requests, requests);
    assertFitsSlack(list);
    for (const block of list.blocks) {
      const text = visibleText([block]);
      const listed = text.split('\n').filter((line) => line.startsWith('• ')).length;
      expect(listed).toBeGreaterThan(0);
      expect(listed + leftOut(text)).toBe(requests.length);
    }
  });
});
