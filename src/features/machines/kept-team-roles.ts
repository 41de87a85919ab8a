// A person's team role for the cards of a list, kept a few minutes per Paperspace team so that a list
// costs one Paperspace call. The legacy API tells a role only by listing the team's users (and, with
// an access token, by probing the team's drives); asked on every /ps list, a team member's list cost
// a second call.
// - Kept per Paperspace team: the team's users are read once for all of its people; each person's
//   role is kept beside them with the time their key was last linked (the vault's updatedAt), so a
//   person who links a new key or an access token is judged again at their next list, not minutes
//   later. What changes in Paperspace (a new teammate, a promotion) shows within KEEP_MS: until then
//   a card may show or hide Settings, Access and Destroy, whose click Paperspace still judges.
// - v1 says the role in the key's session, but a v1 client is one request's: kept here too, a v1 list
//   costs its one call after the first (an administrator of the team answers for its machines there).
// - One memo per store, so each bot (a test's, a replica's) keeps its own. It is keyed by the store's
//   role notes (its approvals repository), the one repository every caller holds: features' listeners
//   (features/feature-deps.ts) and jobs (features/job-needs.ts) are handed different parts of the store,
//   and /ps list, App Home, a card's click and the Home a finished watch redraws share one memo.
import { type RoleNotes, type TeamPerson, type TeamRole, teamRoleOf } from '../../domain/team-role.js';
import type { User } from '../../paperspace/schemas.js';

/** How long a team's users and roles are kept. */
const KEEP_MS = 5 * 60_000;
/** Teams kept at most; the oldest kept is forgotten first. About 1 KB each with their people. */
const MAX_TEAMS = 10_000;

interface KeptTeam {
  expiresAt: number;
  users?: Promise<readonly User[]>;
  /** By Paperspace user id: the role and the link it was read with. */
  roles: Map<string, { linkedAt: number; role: Promise<TeamRole> }>;
}

const memos = new WeakMap<object, Map<string, KeptTeam>>();

function teamsOf(deps: RoleNotes): Map<string, KeptTeam> {
  let teams = memos.get(deps.store.approvals);
  if (teams === undefined) {
    teams = new Map();
    memos.set(deps.store.approvals, teams);
  }
  return teams;
}

function keptTeam(teams: Map<string, KeptTeam>, key: string, at: number): KeptTeam {
  const kept = teams.get(key);
  if (kept !== undefined && kept.expiresAt > at) return kept;
  teams.delete(key);
  const oldest = teams.keys().next();
  if (teams.size >= MAX_TEAMS && !oldest.done) teams.delete(oldest.value);
  const team: KeptTeam = { expiresAt: at + KEEP_MS, roles: new Map() };
  teams.set(key, team);
  return team;
}

/** The team's users as kept, listed with the person's key when none are (a failed list is not kept). */
function usersOf(team: KeptTeam, person: TeamPerson): Promise<readonly User[]> {
  if (team.users === undefined) {
    const users = person.client.users.list({});
    team.users = users;
    users.catch(() => {
      if (team.users === users) team.users = undefined;
    });
  }
  return team.users;
}

/**
 * The users of the person's Paperspace team (legacy API), from the same read as their role: the cards
 * name a teammate's machine's owner with them at no extra call.
 */
export function keptTeamUsers(
  deps: RoleNotes & { now: () => number },
  person: TeamPerson,
  account: { teamId: string | null },
): Promise<readonly User[]> {
  return usersOf(keptTeam(teamsOf(deps), teamKey(person, account), deps.now()), person);
}

/** Every account has a team id; one without (a key linked long ago) is kept as a team of its own. */
function teamKey(person: TeamPerson, account: { teamId: string | null }): string {
  return account.teamId ?? `person:${person.paperspaceUserId}`;
}

/**
 * teamRoleOf, answered from what this bot read of the person's team in the last few minutes when it
 * can be. `account`: the person's linked key's team and when it was last linked. A failed read is
 * not kept: the next list asks again.
 */
export function keptTeamRoleOf(
  deps: RoleNotes & { now: () => number },
  person: TeamPerson,
  account: { teamId: string | null; updatedAt: number },
): Promise<TeamRole> {
  const team = keptTeam(teamsOf(deps), teamKey(person, account), deps.now());
  const kept = team.roles.get(person.paperspaceUserId);
  if (kept !== undefined && kept.linkedAt === account.updatedAt) return kept.role;
  // v1 reads the role from the key's session, with no list of the team's users.
  const role = person.client.capabilities.whoAmI
    ? teamRoleOf(deps, person)
    : usersOf(team, person).then((users) => teamRoleOf(deps, person, users));
  team.roles.set(person.paperspaceUserId, { linkedAt: account.updatedAt, role });
  role.catch(() => {
    if (team.roles.get(person.paperspaceUserId)?.role === role) team.roles.delete(person.paperspaceUserId);
  });
  return role;
}
