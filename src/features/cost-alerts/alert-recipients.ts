// Who a forgotten-machine alert goes to: the machine's owner as the one owner rule names them
// (domain/machine-owner.ts), never whoever's key happened to list the machine. A machine with no owner
// yet goes to the person who started this run through the bot, else to the team's administrators, who
// answer for it; so does one whose Paperspace owner linked no key here. Everything a check needs is
// read once per check: the recorded owners in one query, and the team's users (for an account's only
// user and the administrators) in one Paperspace call, only when some machine has no owner.
import { type MachineOwner, machineOwners, ownerPeople, withSoleUser } from '../../domain/machine-owner.js';
import { administratorsAmong } from '../../domain/team-role.js';
import { describeError } from '../../errors/describe-error.js';
import type { Logger } from '../../logger.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import { approvedRequesterIn } from '../approvals/approval-audit.js';

export type RecipientsStore = Pick<Store, 'machineOwners' | 'vaultEntries' | 'audit' | 'approvals'>;

/** The audit actions that start a machine's run through the bot, and who they name as its starter. */
const RUN_STARTS: ReadonlySet<string> = new Set([
  'machine.start',
  'machine.restart',
  'machine.create',
  'approval.start',
  'approval.restart',
  'approval.create',
]);

/** A run's start is dated by Paperspace's event and its audit record by the bot: a little apart. */
const CLOCK_SLACK_MS = 60_000;

/** Audit records read per unowned machine: its run's start is among the newest things done to it. */
const AUDIT_RECORDS_READ = 20;

export interface CheckRecipients {
  /** The Slack people to alert about a running machine whose run began at `runningSince`. */
  of(machine: Machine, runningSince: number): Promise<SlackUser[]>;
  /** Whose the machine is (for who may mute it). */
  ownerOf(machine: Machine): MachineOwner;
}

interface TeamRoster {
  soleUserId?: string | undefined;
  /** Paperspace ids; undefined when the API lists no roles (the legacy API) or the list failed. */
  administrators?: Set<string> | undefined;
}

export async function createCheckRecipients(
  deps: { store: RecipientsStore; logger: Pick<Logger, 'info'> },
  poller: { user: SlackUser; client: PaperspaceClient },
  machines: readonly Machine[],
): Promise<CheckRecipients> {
  const { store } = deps;
  const { teamId } = poller.user;
  let roster: Promise<TeamRoster> | undefined;
  const rosterOf = () => {
    roster ??= poller.client.users.list({}).then(
      (users) => ({
        soleUserId: users.length === 1 ? users[0]?.id : undefined,
        administrators: administratorsAmong(users),
      }),
      (error: unknown) => {
        deps.logger.info({ error: describeError(error) }, 'could not list the team for alert recipients');
        return {};
      },
    );
    return roster;
  };
  let ownerOf = await machineOwners(store, teamId, machines);
  if (machines.some((machine) => ownerOf(machine).kind === 'none')) {
    const { soleUserId } = await rosterOf();
    ownerOf = withSoleUser(ownerOf, soleUserId);
  }

  let administrators: Promise<SlackUser[]> | undefined;
  /** The team's administrators who linked a key here; the learned roles where the API lists none. */
  const administratorsHere = () => {
    administrators ??= (async () => {
      const listed = (await rosterOf()).administrators;
      const ids =
        listed ??
        new Set(
          [...(await store.approvals.knownRoles(teamId))].filter(([, admin]) => admin).map(([id]) => id),
        );
      const links = await store.vaultEntries.linkedIn(teamId, [...ids]);
      return unique(links.map((link) => ({ teamId, userId: link.slackUserId })));
    })();
    return administrators;
  };

  /** Who started this run through the bot, read from the audit trail; undefined when nobody did. */
  const starterOf = async (machineId: string, runningSince: number): Promise<SlackUser | undefined> => {
    const records = await store.audit.list({ teamId, resourceId: machineId, limit: AUDIT_RECORDS_READ });
    const start = records.find(
      (record) =>
        record.outcome === 'ok' &&
        RUN_STARTS.has(record.action) &&
        record.at >= runningSince - CLOCK_SLACK_MS,
    );
    if (start === undefined) return undefined;
    // An approved request's machine was started for the person who asked, not for the approver.
    const requester = start.action.startsWith('approval.') ? approvedRequesterIn(start.message) : undefined;
    return { teamId, userId: requester ?? start.userId };
  };

  return {
    ownerOf: (machine) => ownerOf(machine),

    async of(machine, runningSince) {
      const owner = ownerOf(machine);
      if (owner.kind !== 'none') {
        const people = await ownerPeople(store, teamId, owner);
        if (people.length > 0) return people;
        return administratorsHere();
      }
      const starter = await starterOf(machine.id, runningSince);
      return starter === undefined ? administratorsHere() : [starter];
    },
  };
}

function unique(people: readonly SlackUser[]): SlackUser[] {
  const seen = new Map(people.map((person) => [`${person.teamId}/${person.userId}`, person]));
  return [...seen.values()];
}
