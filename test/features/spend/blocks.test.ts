import { describe, expect, it } from 'vitest';
import { usageCost } from '../../../src/domain/money.js';
import { budgetsText } from '../../../src/features/spend/blocks/budget-lines.js';
import { digestMessage, type RunningMachine } from '../../../src/features/spend/blocks/digest.js';
import { costBar, spendMessage } from '../../../src/features/spend/blocks/spend.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../../../src/features/spend/spend-report.js';
import type { Machine } from '../../../src/paperspace/schemas.js';
import type { Budget } from '../../../src/store/budgets.js';

const NOW = Date.UTC(2024, 4, 15, 12);

function machineSpend(index: number, hours: number): MachineSpend {
  return {
    id: `ps${index}`,
    name: `machine-<${index}>-with-a-long-name-${'x'.repeat(40)}`,
    state: 'ready',
    cost: usageCost({
      machineId: `ps${index}`,
      utilization: {
        machineId: `ps${index}`,
        secondsUsed: hours * 3600,
        hourlyRate: '0.51',
        billingMonth: '2024-05',
      },
      storageUtilization: {
        machineId: `ps${index}`,
        secondsUsed: 86_400,
        monthlyRate: '5',
        billingMonth: '2024-05',
      },
    }),
  };
}

/** A large team: 60 people with 4 machines each. */
function bigReport(): SpendReport {
  const owners: OwnerSpend[] = Array.from({ length: 60 }, (_, person) => {
    const machines = Array.from({ length: 4 }, (_, index) =>
      machineSpend(person * 4 + index, person + index),
    );
    return {
      people: [
        {
          paperspaceUserId: `u${person}`,
          slackUsers: [{ teamId: 'T1', userId: `U${person}` }],
          paperspaceUser: undefined,
        },
      ],
      machines,
      total: machines.reduce((sum, machine) => sum + (machine.cost.total ?? 0), 0),
    };
  }).sort((a, b) => b.total - a.total);
  return {
    month: '2024-05',
    current: true,
    asOf: NOW,
    scope: 'team',
    machines: [],
    owners,
    unowned: [],
    total: owners.reduce((sum, owner) => sum + owner.total, 0),
    unpriced: [],
    unread: [],
    source: 'reported',
    attributedByBot: false,
  };
}

function checkLimits(message: { blocks: unknown[] }): void {
  expect(message.blocks.length).toBeLessThanOrEqual(50);
  for (const block of message.blocks as { text?: { text: string } }[]) {
    expect(block.text?.text.length ?? 0).toBeLessThanOrEqual(3000);
  }
}

describe('spend and digest messages', () => {
  it('draws the biggest machine the full bar and the others in proportion', () => {
    expect(costBar(50, 50)).toBe('▇'.repeat(20));
    expect(costBar(25, 50)).toBe('▇'.repeat(10));
    expect(costBar(0.01, 50)).toBe('▇');
    expect(costBar(0, 50)).toBe('');
  });

  it("keep a large team's spend within Slack's limits, saying how many people are left out of the list", () => {
    const message = spendMessage(bigReport());
    checkLimits(message);
    const text = JSON.stringify(message.blocks);
    expect(text).toMatch(/more people, \$[\d.]+ together \(in the total above\)/);
    // Names are escaped: a machine named <x> cannot become a Slack link.
    expect(text).not.toContain('machine-<');
  });

  it('keep a digest of many running machines within the limits, naming the ones without a row', () => {
    const running: RunningMachine[] = Array.from({ length: 70 }, (_, index) => ({
      machine: { id: `ps${index}`, name: `m${index}`, state: 'ready', machineType: 'C4' } as Machine,
      owner: `<@U${index}>`,
      since: NOW - index * 60_000,
    }));
    const message = digestMessage(running, bigReport(), NOW);
    checkLimits(message);
    expect(JSON.stringify(message.blocks)).toMatch(
      /…and \d+ more running: m\d+, m\d+.* `\/ps list state=ready` shows them/,
    );
  });

  it("list the team's budgets in the digest, each with the month's spend and its month-end forecast", () => {
    const budget = (subject: Budget['subject'], amountCents: number, spentCents: number): Budget => ({
      teamId: 'T1',
      paperspaceTeamId: 'team-a',
      subject,
      amountCents,
      setBy: 'U0MAYA',
      setAt: NOW,
      spentCents,
      spentMonth: '2024-05',
      spentAt: NOW,
    });
    // 14.5 of May's 31 days gone: the spend so far × 31 / 14.5 by the month's end.
    const text = budgetsText(
      [budget('team', 200_000, 90_000), budget({ userId: 'U0SAM' }, 30_000, 3_000)],
      NOW,
    );
    const message = digestMessage([], bigReport(), NOW, text);
    checkLimits(message);
    const shown = JSON.stringify(message.blocks);
    expect(shown).toContain('*Team*: $2000.00 a month; $900.00 spent (45%), about $1924.14 by month end');
    expect(shown).toContain('<@U0SAM>: $300.00 a month; $30.00 spent (10%), about $64.14 by month end');
    expect(budgetsText([], NOW)).toBeUndefined();
  });
});
