// What a billing month has cost, machine by machine and owner by owner, read with one person's own
// key: the machines it lists, each machine's utilization (Paperspace's meter, or v1's estimate from
// events and rates), and whose each is by the owner rule (machine-attribution.ts). /ps spend shows it;
// the team digest posts its totals. Machines with no owner yet are kept apart, so a member can claim
// theirs and an administrator assign them.
import { billingMonthAsked, billingMonthAt } from '../../domain/billing-month.js';
import { isOwnedBy } from '../../domain/machine-owner.js';
import { sumOfCents, type UsageCost, usageCost } from '../../domain/money.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine, MachineUtilization, User } from '../../paperspace/schemas.js';
import { monthBounds } from '../../paperspace/v1/usage-estimate.js';
import { forEachInSlices } from '../../scheduler/concurrency.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import { type Attribution, attributeMachines, type SpendPerson } from './machine-attribution.js';
import { readPaceOf } from './read-pace.js';
import { utilizationCacheOf } from './utilization-cache.js';

export interface MachineSpend {
  id: string;
  name: string;
  state: string;
  cost: UsageCost;
}

/** One line of the report: an owner and what their machines cost. */
export interface OwnerSpend {
  /** The owner, as one person may be known here several ways (Slack links of one Paperspace user). */
  people: SpendPerson[];
  /** Biggest first. */
  machines: MachineSpend[];
  /** Sum of the machines' totals whose rates could be read. */
  total: number;
}

/** `team`: every machine of the team, for an administrator. `own`: the machines that are the person's. */
type SpendScope = 'team' | 'own';

export interface SpendReport {
  month: string;
  /** The month is still running: figures are to date. */
  current: boolean;
  asOf: number;
  scope: SpendScope;
  /** The machines counted (listed by the key, existing in the month, in scope), as listed. */
  machines: Machine[];
  /** Biggest spender first. */
  owners: OwnerSpend[];
  /**
   * The team's machines with no owner yet, biggest first: counted in a team report's total; in a
   * member's, listed beside their own for them to claim, and not in their total.
   */
  unowned: MachineSpend[];
  total: number;
  /** Machines whose rate Paperspace sent unreadable: counted in hours, not in money. */
  unpriced: MachineSpend[];
  /** Machines whose utilization could not be read, with Paperspace's one-sentence reason. */
  unread: { id: string; name: string; problem: string }[];
  /** Where the figures come from: Paperspace's meter, or v1's estimate from events and rates. */
  source: 'reported' | 'estimated';
  /** Paperspace named no owner of some machine, so the bot's records say whose it is: the reply says how. */
  attributedByBot: boolean;
}

export interface SpendReader {
  store: Pick<Store, 'vaultEntries' | 'machineOwners'>;
  clients: PaperspaceClientFactory;
  now: () => number;
}

export interface SpendRequest {
  /** Whose key reads: every figure is what Paperspace shows this person. */
  user: SlackUser;
  client: PaperspaceClient;
  /** The person's own Paperspace user id (from their linked account). */
  paperspaceUserId: string;
  /** `YYYY-MM`; the current UTC month when null. Later months are refused. */
  month: string | null;
  /** Whole team (the caller checked the person administers it), or the person's own machines. */
  teamWide: boolean;
  /** The team's users, when the caller has read them already. */
  users?: readonly User[];
  /** The machines the key lists, when the caller has listed them already (the scheduler's tick). */
  listed?: readonly Machine[];
}

export async function readSpend(reader: SpendReader, request: SpendRequest): Promise<SpendReport> {
  const now = reader.now();
  const month = billingMonthAsked(request.month, now);
  const current = month === billingMonthAt(now);
  const { client } = request;
  const [, monthEnd] = monthBounds(month);
  // A machine created after the month had nothing to bill in it; never charge it for the month.
  const existedInMonth = (machine: Machine) => !(Date.parse(machine.dtCreated) >= monthEnd);
  const cache = utilizationCacheOf(reader.clients, reader.now);
  const pace = readPaceOf(reader.clients, request.user);
  const utilizationOf = (machine: Machine) =>
    cache.get(machine.id, month, current, () =>
      pace.run((options) => client.machines.utilization(machine.id, month, options)),
    );
  const users = request.users === undefined ? client.users.list({}) : Promise.resolve(request.users);
  users.catch(() => undefined);
  // A team's report, or an account of one person, reads every machine it lists: each read starts as
  // its page arrives, so a list of several pages is read while the next is still on its way.
  const readsEveryMachine = request.teamWide || (request.users !== undefined && request.users.length <= 1);
  const readingEarly = new Map<string, Promise<MachineUtilization>>();
  const listed: Machine[] = [...(request.listed ?? [])];
  if (request.listed === undefined) {
    for await (const machine of client.machines.listAll()) {
      listed.push(machine);
      if (!readsEveryMachine || !existedInMonth(machine)) continue;
      const reading = utilizationOf(machine);
      // Answered where it is read below; a list that fails later leaves it read by nobody.
      reading.catch(() => undefined);
      readingEarly.set(machine.id, reading);
    }
  }
  const existed = listed.filter(existedInMonth);
  const scope: SpendScope = request.teamWide ? 'team' : 'own';
  const attributionOf = await attributeMachines(
    { store: reader.store, teamId: request.user.teamId, users: await users },
    existed,
  );
  // A member's report holds their machines and those nobody owns yet: nothing else is read for them.
  const inScope = (attribution: Attribution) =>
    scope === 'team' || attribution.owner.kind === 'none' || isOwnedBy(attribution.owner, readerOf(request));

  const spends = new Map<string, { spend: MachineSpend; attribution: Attribution }>();
  const unread: SpendReport['unread'] = [];
  const read = async (machine: Machine, attribution: Attribution) => {
    try {
      const utilization = await (readingEarly.get(machine.id) ?? utilizationOf(machine));
      const cost = usageCost(utilization);
      spends.set(machine.id, {
        spend: { id: machine.id, name: machine.name, state: machine.state, cost },
        attribution,
      });
    } catch (error) {
      // One machine Paperspace will not report on must not hide the others; the reply names it.
      if (!(error instanceof PaperspaceError || error instanceof UserFacingError)) throw error;
      unread.push({ id: machine.id, name: machine.name, problem: error.message });
    }
  };
  const reads: Promise<void>[] = [];
  await forEachInSlices(existed, (machine) => {
    const attribution = attributionOf(machine);
    if (inScope(attribution)) reads.push(read(machine, attribution));
  });
  await Promise.all(reads);

  // The digest lists the team's running machines from here, read or not; a member's, only theirs.
  const isTheirs = (machine: Machine) => {
    const found = spends.get(machine.id);
    return found !== undefined && found.attribution.owner.kind !== 'none';
  };
  const machines = scope === 'team' ? existed : existed.filter(isTheirs);
  const groups = new Map<string, OwnerSpend>();
  const unowned: MachineSpend[] = [];
  for (const machine of existed) {
    const found = spends.get(machine.id);
    if (found === undefined) continue;
    const { spend, attribution } = found;
    if (attribution.owner.kind === 'none') {
      unowned.push(spend);
      continue;
    }
    const group = groups.get(attribution.key) ?? {
      people: attribution.people,
      machines: [],
      total: 0,
    };
    group.machines.push(spend);
    groups.set(attribution.key, group);
  }
  const owners = [...groups.values()];
  for (const owner of owners) {
    owner.machines.sort(biggestFirst);
    owner.total = sumOfCents(owner.machines.map((machine) => machine.cost.total ?? 0));
  }
  owners.sort((a, b) => b.total - a.total);
  unowned.sort(biggestFirst);
  const counted = [...owners.flatMap((owner) => owner.machines), ...(scope === 'team' ? unowned : [])];
  return {
    month,
    current,
    asOf: now,
    scope,
    machines,
    owners,
    unowned,
    total: sumOfCents(counted.map((machine) => machine.cost.total ?? 0)),
    unpriced: counted.filter((machine) => machine.cost.total === undefined),
    unread: unread.sort((a, b) => a.name.localeCompare(b.name)),
    source: client.capabilities.utilization,
    attributedByBot: [...spends.values()].some(({ attribution }) => attribution.owner.kind !== 'paperspace'),
  };
}

function biggestFirst(a: MachineSpend, b: MachineSpend): number {
  return (b.cost.total ?? 0) - (a.cost.total ?? 0) || a.name.localeCompare(b.name);
}

function readerOf(request: SpendRequest) {
  return { userId: request.user.userId, paperspaceUserId: request.paperspaceUserId };
}
