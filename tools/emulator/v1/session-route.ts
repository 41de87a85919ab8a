// Who am I: GET /auth/session, with every field v1's OpenAPI requires of the user and the team. The
// world keeps only what the bot and the contract need (names, e-mail, role, times), so the rest is
// answered as a plain account would have it: confirmed when made, signed in with a password, no
// phone or MFA, no preferences, and the metadata's documented defaults.
import { iso } from '../machine-view.js';
import type { AccountRecord, UserRecord } from '../records.js';
import { json, type Reply } from '../router.js';
import type { V1Context, V1Route } from './router.js';
import { userV1View } from './views.js';

/**
 * The most machines a team may have. The emulator enforces no such limit; the number is there because
 * v1 answers one, and is larger than any test or demo creates.
 */
const MAX_MACHINES = 1000;

/** The world has no namespaces: one is derived from the account's name ("Acme" -> "acme"). */
export function namespaceOf(account: AccountRecord | undefined, accountId: string): string {
  return (account?.name ?? accountId)
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
}

/**
 * v1's internal numeric id of a user or team (`analyticsId`). The world's ids are strings, so one is
 * derived from them (FNV-1a), the same for the same id on every run.
 */
function analyticsIdOf(id: string): number {
  let hash = 0x811c9dc5;
  for (const character of id) hash = Math.imul(hash ^ (character.codePointAt(0) ?? 0), 0x01000193);
  return hash >>> 0;
}

function sessionOf(user: UserRecord, account: AccountRecord | undefined) {
  const isPersonal = account?.kind !== 'team';
  const namespace = namespaceOf(account, user.accountId);
  return {
    user: {
      ...userV1View(user),
      dtCreated: iso(user.dtCreated),
      dtConfirmed: iso(user.dtCreated),
      teamMemberships: [
        {
          team: {
            id: user.accountId,
            name: account?.name ?? user.accountId,
            namespace,
            publicProfileImageUrl: null,
            isUserTeam: isPersonal,
            dtCreated: iso(account?.dtCreated ?? user.dtCreated),
          },
          isAdmin: user.role === 'admin',
          isOwner: isPersonal,
        },
      ],
      isPhoneVerified: false,
      isPasswordAuthEnabled: true,
      isQrCodeBasedMfaEnabled: false,
      isQrCodeBasedMfaConfirmed: false,
      preferences: null,
      analyticsId: analyticsIdOf(user.id),
      metadata: { tags: null, coreSurvey: null, gradientSurvey: null, graphcoreTermsAccepted: false },
    },
    team: {
      id: user.accountId,
      namespace,
      isPrivate: isPersonal,
      maxMachines: MAX_MACHINES,
      analyticsId: analyticsIdOf(user.accountId),
    },
  };
}

function session({ core, user }: V1Context): Reply {
  return json(sessionOf(user, core.world.accounts.get(user.accountId)));
}

export const v1SessionRoutes: readonly V1Route[] = [
  { method: 'GET', path: '/auth/session', handle: session },
];
