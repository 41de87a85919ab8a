// The month's spend as a chart in /ps spend and the digest: per person for a team (the 20th bar summing
// everyone after the 19th), per machine for one person's own, none when nothing was spent; every
// message still within Slack's rules, and its text saying the same amounts as the bars.
import { describe, expect, it } from 'vitest';
import { usageCost } from '../../../src/domain/money.js';
import { digestMessage } from '../../../src/features/spend/blocks/digest.js';
import { spendMessage } from '../../../src/features/spend/blocks/spend.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../../../src/features/spend/spend-report.js';
import type { BarChartBlock } from '../../../src/slack/block-kit/bar-chart.js';
import { assertFitsSlack } from '../../support/fits-slack.js';

const NOW = Date.UTC(2024, 4, 15, 12);

function machine(name: string, hours: number): MachineSpend {
  const id = `ps-${name}`;
  return {
    id,
    name,
    state: 'ready',
    cost: usageCost({
      machineId: id,
      utilization: { machineId: id, secondsUsed: hours * 3600, hourlyRate: '0.51', billingMonth: '2024-05' },
      storageUtilization: { machineId: id, secondsUsed: 0, monthlyRate: '5', billingMonth: '2024-05' },
    }),
  };
}

function owner(index: number, machines: MachineSpend[]): OwnerSpend {
  return {
    people: [
      {
        paperspaceUserId: `u${index}`,
        slackUsers: [{ teamId: 'T1', userId: `U${index}` }],
        paperspaceUser: {
          id: `u${index}`,
          email: `person${index}@example.com`,
          firstname: 'Person',
          lastname: `Number ${index}`,
        } as NonNullable<OwnerSpend['people'][number]['paperspaceUser']>,
      },
    ],
    machines,
    total: machines.reduce((sum, one) => sum + Math.round((one.cost.total ?? 0) * 100), 0) / 100,
  };
}

function report(
  owners: OwnerSpend[],
  scope: SpendReport['scope'],
  unowned: MachineSpend[] = [],
): SpendReport {
  const all = [...owners.flatMap((one) => one.machines), ...(scope === 'team' ? unowned : [])];
  return {
    month: '2024-05',
    current: true,
    asOf: NOW,
    scope,
    machines: [],
    owners: [...owners].sort((a, b) => b.total - a.total),
    unowned,
    total: all.reduce((sum, one) => sum + Math.round((one.cost.total ?? 0) * 100), 0) / 100,
    unpriced: [],
    unread: [],
    source: 'reported',
    attributedByBot: false,
  };
}

function chartOf(message: { blocks: readonly unknown[] }): BarChartBlock | undefined {
  return message.blocks.find(
    (block): block is BarChartBlock => (block as { type?: string }).type === 'data_visualization',
  );
}

const cents = (values: number[]) => values.reduce((sum, value) => sum + Math.round(value * 100), 0) / 100;

describe('the spend chart', () => {
  it("draws a large team's first 19 people and everyone else as the 20th bar, on every page", () => {
    const owners = Array.from({ length: 45 }, (_, index) => owner(index, [machine(`m${index}`, index + 1)]));
    const team = report(owners, 'team');
    for (const page of [1, 2]) {
      const message = spendMessage(team, undefined, page);
      assertFitsSlack(message);
      const chart = chartOf(message);
      const points = chart?.chart.series[0]?.data ?? [];
      expect(points).toHaveLength(20);
      expect(points[0]).toEqual({ label: 'Person Number 44', value: team.owners[0]?.total });
      expect(points.at(-1)?.label).toBe('Everyone else');
      expect(points.at(-1)?.value).toBe(cents(team.owners.slice(19).map((one) => one.total)));
      expect(cents(points.map((point) => point.value))).toBe(team.total);
      expect(message.text).toContain(`Everyone else $${points.at(-1)?.value.toFixed(2)}`);
    }
  });

  it('gives the machines with no owner yet a bar of their own in the team’s chart', () => {
    const team = report([owner(1, [machine('a', 2)])], 'team', [machine('b', 1), machine('c', 1)]);
    const points = chartOf(spendMessage(team))?.chart.series[0]?.data;
    expect(points).toEqual([
      { label: 'Person Number 1', value: 1.02 },
      { label: 'No owner yet', value: 1.02 },
    ]);
  });

  it("draws one person's own spend per machine, and says so in the title", () => {
    const own = report([owner(1, [machine('small', 1), machine('big', 10)])], 'own', [machine('theirs', 5)]);
    const message = spendMessage(own);
    assertFitsSlack(message);
    const chart = chartOf(message);
    expect(chart?.title).toBe('Your spend by machine · May 2024 so far');
    expect(chart?.chart.series[0]?.data).toEqual([
      { label: 'big', value: 5.1 },
      { label: 'small', value: 0.51 },
    ]);
    expect(message.text).toContain('big $5.10, small $0.51');
  });

  it('draws no chart when nothing was spent', () => {
    const idle = report([owner(1, [machine('idle', 0)])], 'team');
    expect(chartOf(spendMessage(idle))).toBeUndefined();
  });

  it('puts the chart in the digest, and its amounts in the digest’s text', () => {
    const team = report([owner(1, [machine('a', 2)]), owner(2, [machine('b', 4)])], 'team');
    const message = digestMessage([], team, NOW);
    assertFitsSlack(message);
    expect(chartOf(message)?.title).toBe('Spend by person · May 2024 so far');
    expect(message.text).toContain('Person Number 2 $2.04, Person Number 1 $1.02');
  });
});
