// What a billing month has cost, machine by machine and person by person, read with one person's own
// key: the machines it lists, each machine's utilization (Paperspace's meter, or v1's estimate from
// events and rates), and the owner of each. /ps spend shows it; the team digest posts its totals.
import { billingMonthAsked, billingMonthAt } from '../../domain/billing-month.js';
import { linkedPeopleOf, ownerIdOf } from '../../domain/machine-people.js';
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
import { utilizationCacheOf } from './utilization-cache.js';

/** Utilization requests in flight at once for one report: quick, without a burst Paperspace answers with 429. */
const CONCURRENT_READS = 4;

export interface MachineSpend {
  id: string;
  name: string;
  state: string;
  cost: UsageCost;
}

export interface OwnerSpend {
  /** The owner's Paperspace user id; undefined when Paperspace does not say (v1 machines). */
  ownerId: string | undefined;
  /** Slack people who linked the owner's account (mentionable), oldest link first. */
  slackUsers: SlackUser[];
  /**
   * Paperspace names no owner, and the Slack person is who created the machine through the bot (v1
   * creates a machine for the key that asks, so that person owns it).
   */
  createdThroughBot?: true;
  /** The owner as Paperspace names them, when the users list has them. */
  paperspaceUser: User | undefined;
  /** Biggest first. */
  machines: MachineSpend[];
  /** Sum of the machines' totals whose rates could be read. */
  total: number;
}

/**
 * `team`: every machine of the team, for an administrator. `own`: the machines the person owns.
 * `visible`: every machine the key lists, because Paperspace does not say who owns them (v1).
 */
type SpendScope = 'team' | 'own' | 'visible';

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
}

export interface SpendReader {
  store: Pick<Store, 'vaultEntries' | 'audit'>;
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
  const ownersKnown = existed.every((machine) => ownerIdOf(machine) !== undefined);
  const scope: SpendScope = request.teamWide ? 'team' : ownersKnown ? 'own' : 'visible';
  const machines =
    scope === 'own' ? existed.filter((machine) => ownerIdOf(machine) === request.paperspaceUserId) : existed;

  const cache = utilizationCacheOf(reader.clients, reader.now);
  const spends = new Map<string, MachineSpend>();
  const unread: SpendReport['unread'] = [];
  await forEachConcurrently(machines, CONCURRENT_READS, async (machine) => {
    try {
      const utilization = await cache.get(machine.id, month, current, () =>
        client.machines.utilization(machine.id, month),
      );
      spends.set(machine.id, {
        id: machine.id,
        name: machine.name,
        state: machine.state,
        cost: usageCost(utilization),
      });
    } catch (error) {
      // One machine Paperspace will not report on must not hide the others; the reply names it.
      if (!(error instanceof PaperspaceError || error instanceof UserFacingError)) throw error;
      unread.push({ id: machine.id, name: machine.name, problem: error.message });
    }
  });

  const users = request.users ?? (scope === 'team' ? await client.users.list({}) : []);
  // Grouped by Paperspace owner; a machine Paperspace names no owner for (v1) by the Slack person
  // who created it through the bot, when the audit trail still says; the rest together.
  const groups = new Map<
    string,
    { ownerId: string | undefined; creator?: SlackUser; machines: MachineSpend[] }
  >();
  for (const machine of machines) {
    const spend = spends.get(machine.id);
    if (spend === undefined) continue;
    const ownerId = ownerIdOf(machine);
    const creator =
      ownerId === undefined ? await creatorOf(reader.store, request.user.teamId, machine.id) : undefined;
    const key =
      ownerId !== undefined ? `owner:${ownerId}` : creator ? `creator:${creator.userId}` : 'unknown';
    const group = groups.get(key) ?? { ownerId, ...(creator ? { creator } : {}), machines: [] };
    group.machines.push(spend);
    groups.set(key, group);
  }
  const owners: OwnerSpend[] = [];
  for (const { ownerId, creator, machines: owned } of groups.values()) {
    owned.sort((a, b) => (b.cost.total ?? 0) - (a.cost.total ?? 0) || a.name.localeCompare(b.name));
    owners.push({
      ownerId,
      slackUsers:
        ownerId !== undefined
          ? await linkedPeopleOf(reader.store, request.user.teamId, ownerId)
          : creator
            ? [creator]
            : [],
      ...(creator ? { createdThroughBot: true } : {}),
      paperspaceUser: users.find((user) => user.id === ownerId),
      machines: owned,
      total: sumOfCents(owned.map((machine) => machine.cost.total ?? 0)),
    });
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
  };
}

/** Who created the machine through the bot, from the audit trail (kept AUDIT_RETENTION_DAYS). */
async function creatorOf(
  store: Pick<Store, 'audit'>,
  teamId: string,
  machineId: string,
): Promise<SlackUser | undefined> {
  const records = await store.audit.list({ teamId, resourceId: machineId, limit: 50 });
  const created = records.find((record) => record.action === 'machine.create' && record.outcome === 'ok');
  return created && { teamId: created.teamId, userId: created.userId };
}
