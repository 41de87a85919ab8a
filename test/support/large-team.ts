// Seeds the size of a real, large team for tests of what the bot posts: 60 people, 120 running
// machines, names of 50 characters holding the three characters Slack's mrkdwn escapes (`&`, `<`, `>`),
// so every escape grows the text the way it does in Slack.
import { usageCost } from '../../src/domain/money.js';
import type { MachineSpend, OwnerSpend, SpendReport } from '../../src/features/spend/spend-report.js';
import type { Machine } from '../../src/paperspace/schemas.js';
import { machineFixture } from '../slack/block-kit/fixtures.js';

export const LARGE_TEAM = { people: 60, machines: 120 } as const;

/** A 50-character machine name with `&`, `<` and `>`, unique by index. */
function longMachineName(index: number): string {
  const head = `R&D <gpu> ${String(index).padStart(3, '0')} `;
  return `${head}${'&<>x'.repeat(20)}`.slice(0, 50);
}

/** `count` running machines (ready), two to a person of `people`, as the team key lists them. */
export function largeRunningMachines(count: number = LARGE_TEAM.machines): Machine[] {
  return Array.from({ length: count }, (_, index) =>
    machineFixture({
      id: `ps${String(index).padStart(7, '0')}`,
      name: longMachineName(index),
      state: 'ready',
      machineType: 'A100-80G',
      region: 'East Coast (NY2)',
      userId: `u${String(index % LARGE_TEAM.people).padStart(6, '0')}`,
    }),
  );
}

function machineSpend(machine: Machine, hours: number): MachineSpend {
  return {
    id: machine.id,
    name: machine.name,
    state: machine.state,
    cost: usageCost({
      machineId: machine.id,
      utilization: {
        machineId: machine.id,
        secondsUsed: hours * 3600,
        hourlyRate: '3.09',
        billingMonth: '2024-05',
      },
      storageUtilization: {
        machineId: machine.id,
        secondsUsed: 86_400,
        monthlyRate: '5',
        billingMonth: '2024-05',
      },
    }),
  };
}

/** The month's spend of `people` people owning `machines` machines between them, biggest first. */
export function largeSpendReport(
  asOf: number,
  people: number = LARGE_TEAM.people,
  machines: number = LARGE_TEAM.machines,
): SpendReport {
  const all = largeRunningMachines(machines);
  const owners: OwnerSpend[] = Array.from({ length: people }, (_, person) => {
    const own = all
      .filter((_, index) => index % people === person)
      .map((machine, index) => machineSpend(machine, 10 + person + index));
    return {
      people: [
        {
          paperspaceUserId: `u${String(person).padStart(6, '0')}`,
          slackUsers: [{ teamId: 'T0LARGE01', userId: `U${String(person).padStart(9, '0')}` }],
          paperspaceUser: undefined,
        },
      ],
      machines: own,
      total: own.reduce((sum, machine) => sum + (machine.cost.total ?? 0), 0),
    };
  }).sort((a, b) => b.total - a.total);
  return {
    month: '2024-05',
    current: true,
    asOf,
    scope: 'team',
    machines: all,
    owners,
    unowned: [],
    total: owners.reduce((sum, owner) => sum + owner.total, 0),
    unpriced: [],
    unread: [],
    source: 'reported',
    attributedByBot: false,
  };
}
