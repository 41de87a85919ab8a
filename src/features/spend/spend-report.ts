// What a billing month has cost, machine by machine and person by person, read with one person's own
// key: the machines it lists, each machine's utilization (Paperspace's meter, or v1's estimate from
// events and rates), and whose each is (machine-attribution.ts). /ps spend shows it; the team digest
// posts its totals.
import { billingMonthAsked, billingMonthAt } from '../../domain/billing-month.js';
import { sumOfCents, type UsageCost, usageCost } from '../../domain/money.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import { PaperspaceError } from '../../paperspace/errors.js';
import type { Machine, User } from '../../paperspace/schemas.js';
import { monthBounds } from '../../paperspace/v1/usage-estimate.js';
import { forEachConcurrently } from '../../scheduler/concurrency.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';
import {
  type Attribution,
  attributeMachine,
  isAttributedTo,
  type SpendPerson,
} from './machine-attribution.js';
import { utilizationCacheOf } from './utilization-cache.js';

/** Utilization requests in flight at once for one report: quick, without a burst Paperspace answers with 429. */
const CONCURRENT_READS = 4;

export interface MachineSpend {
  id: string;
  name: string;
  state: string;
  cost: UsageCost;
}

/** One line of the report: a person (or the people sharing some machines) and what they cost. */
export interface OwnerSpend {
  /** Usually one; the accessors of machines several people share; none when nothing says. */
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
  total: number;
  /** Machines whose rate Paperspace sent unreadable: counted in hours, not in money. */
  unpriced: MachineSpend[];
  /** Machines whose utilization could not be read, with Paperspace's one-sentence reason. */
  unread: { id: string; name: string; problem: string }[];
  /** Where the figures come from: Paperspace's meter, or v1's estimate from events and rates. */
  source: 'reported' | 'estimated';
  /** Some machine's person was found by the bot (Paperspace named no owner): the reply says how. */
  attributedByBot: boolean;
}

export interface SpendReader {
  store: Pick<Store, 'vaultEntries' | 'audit' | 'approvals'>;
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
}

export async function readSpend(reader: SpendReader, request: SpendRequest): Promise<SpendReport> {
  const now = reader.now();
  const month = billingMonthAsked(request.month, now);
  const current = month === billingMonthAt(now);
  const { client } = request;
  const [, monthEnd] = monthBounds(month);
  const listed: Machine[] = [];
  for await (const machine of client.machines.listAll()) listed.push(machine);
  // A machine created after the month had nothing to bill in it; never charge it for the month.
  const existed = listed.filter((machine) => !(Date.parse(machine.dtCreated) >= monthEnd));
  const scope: SpendScope = request.teamWide ? 'team' : 'own';
  const users = request.users ?? (await client.users.list({}));
  const context = { store: reader.store, client, teamId: request.user.teamId, users };

  const cache = utilizationCacheOf(reader.clients, reader.now);
  const spends = new Map<string, { spend: MachineSpend; attribution: Attribution }>();
  const unread: SpendReport['unread'] = [];
  await forEachConcurrently(existed, CONCURRENT_READS, async (machine) => {
    try {
      const attribution = await attributeMachine(context, machine);
      // A member's report holds only their machines: nothing else is read for them.
      if (scope === 'own' && !isAttributedTo(attribution, request)) return;
      const utilization = await cache.get(machine.id, month, current, () =>
        client.machines.utilization(machine.id, month),
      );
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
  });

  // The digest lists the team's running machines from here, read or not; a member's, only theirs.
  const machines = scope === 'team' ? existed : existed.filter((machine) => spends.has(machine.id));
  const groups = new Map<string, OwnerSpend>();
  for (const machine of machines) {
    const found = spends.get(machine.id);
    if (found === undefined) continue;
    const { spend, attribution } = found;
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
    owner.machines.sort((a, b) => (b.cost.total ?? 0) - (a.cost.total ?? 0) || a.name.localeCompare(b.name));
    owner.total = sumOfCents(owner.machines.map((machine) => machine.cost.total ?? 0));
  }
  owners.sort((a, b) => b.total - a.total);
  const all = owners.flatMap((owner) => owner.machines);
  return {
    month,
    current,
    asOf: now,
    scope,
    machines,
    owners,
    total: sumOfCents(owners.map((owner) => owner.total)),
    unpriced: all.filter((machine) => machine.cost.total === undefined),
    unread: unread.sort((a, b) => a.name.localeCompare(b.name)),
    source: client.capabilities.utilization,
    attributedByBot: [...spends.values()].some(({ attribution }) => attribution.basis !== 'owner'),
  };
}
