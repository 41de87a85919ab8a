// Whom an administrator's create is for, when they name a person instead of a Paperspace user id
// (`for=@sam`, or `userId=@sam`). Nobody can be asked for an id they only find in `/ps users`, and
// the legacy API answers a wrong one with a bare "(400) not a member of this team" (issue 45).
// - A mention is the Slack person: the user of the team whose e-mail is the one on their Slack
//   profile (as a team key is linked to its member, account-linking.ts), else the user of the key
//   they linked.
// - Typed text is a Paperspace user of the team: its id, e-mail, first name or full name.
// Someone the team does not hold is told so in a sentence, before anything reaches Paperspace.
import { linkedPeopleOf, paperspaceUserLabel, typedNamesOf } from '../../domain/machine-people.js';
import type { Dialect } from '../../paperspace/dialect.js';
import type { User } from '../../paperspace/schemas.js';
import { mentionedUserId } from '../../slack/block-kit/text.js';
import { SLASH_COMMAND as ps } from '../../slack/ids.js';
import type { Interaction } from '../../slack/interaction.js';
import { slackProfile } from '../../slack/user-profile.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { Store } from '../../store/store.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { AccountKind } from './account-kind.js';
import type { CreatedOwner } from './machine-ownership.js';

/** The person a machine is created for: their Paperspace user, and their Slack person when known. */
export interface Recipient {
  paperspaceUserId: string;
  slackUserId: string | undefined;
}

type Found = { ok: true; recipient: Recipient } | { ok: false; problem: string };

interface RecipientLookup {
  request: Pick<Interaction, 'web' | 'user'> & { logger: Interaction['deps']['logger'] };
  deps: { vault: Pick<KeyVault, 'account'>; store: Pick<Store, 'vaultEntries'> };
  /** The users of the asker's Paperspace team, as their key lists them. */
  teamUsers: readonly User[];
}

/** What the create sends once the person named is found, and whom the bot records as its owner. */
export type WithRecipient =
  | { ok: true; params: Record<string, unknown>; recipient: Recipient | undefined }
  | { ok: false; problem: string };

/**
 * The create's parameters with `for=` (or a `userId=` that is not a user id of the team) turned into
 * the team user it names: the owner on the legacy API (`userId`); on v1, which has no owner, an
 * accessor (v1's `userId`) when it is someone else, and the bot records them as the owner.
 */
export async function withRecipient(
  lookup: RecipientLookup,
  asker: { account: AccountKind; dialect: Dialect; paperspaceUserId: string | undefined },
  named: string | undefined,
  params: Record<string, unknown>,
): Promise<WithRecipient> {
  const typedUserId = typeof params.userId === 'string' ? params.userId.trim() : undefined;
  if (asker.account.kind !== 'team') {
    // An individual account's machine is its own; a typed userId is refused by the create's checks.
    if (named === undefined) return { ok: true, params, recipient: undefined };
    return {
      ok: false,
      problem:
        'for= is only for a team machine: on an individual account the machine is yours, so leave it out.',
    };
  }
  if (named !== undefined && typedUserId !== undefined) {
    return { ok: false, problem: 'for= and userId= both say whom the machine is for: give one of them.' };
  }
  const person =
    named ?? (lookup.teamUsers.some((user) => user.id === typedUserId) ? undefined : typedUserId);
  if (person === undefined) return { ok: true, params, recipient: undefined };
  const found = await findRecipient(lookup, person);
  if (!found.ok) return found;
  const { recipient } = found;
  const { userId: _typed, ...rest } = params;
  if (asker.dialect === 'v1' && recipient.paperspaceUserId === asker.paperspaceUserId) {
    return { ok: true, params: rest, recipient };
  }
  return { ok: true, params: { ...rest, userId: recipient.paperspaceUserId }, recipient };
}

/** The team user `typed` names: a mention of a Slack person, or a user's id, e-mail or name. */
async function findRecipient(lookup: RecipientLookup, typed: string): Promise<Found> {
  const mentioned = mentionedUserId(typed);
  if (mentioned !== undefined) return findMentioned(lookup, mentioned);
  const text = typed.replace(/^@/, '').trim().toLowerCase();
  const matches = lookup.teamUsers.filter((user) => typedNamesOf(user).includes(text));
  const [only] = matches;
  if (only === undefined) {
    return {
      ok: false,
      problem:
        `Nobody in your Paperspace team is called "${typed}": mention the person (for=@sam), ` +
        `or give their e-mail or full name as \`${ps} users\` lists them.`,
    };
  }
  if (matches.length > 1) {
    const names = matches.map(paperspaceUserLabel).join(', ');
    return { ok: false, problem: `"${typed}" could be ${names}: give a full name or an e-mail.` };
  }
  const [linked] = await linkedPeopleOf(lookup.deps.store, lookup.request.user.teamId, only.id);
  return { ok: true, recipient: { paperspaceUserId: only.id, slackUserId: linked?.userId } };
}

async function findMentioned(lookup: RecipientLookup, slackUserId: string): Promise<Found> {
  const { request, deps, teamUsers } = lookup;
  const profile = await slackProfile(request.web, slackUserId, request.logger);
  const email = profile.email?.toLowerCase();
  const byEmail =
    email === undefined ? undefined : teamUsers.find((user) => user.email.toLowerCase() === email);
  if (byEmail !== undefined) return { ok: true, recipient: { paperspaceUserId: byEmail.id, slackUserId } };
  // A key they linked says who they are on Paperspace even when their Slack e-mail is another.
  const linked = await deps.vault.account({ teamId: request.user.teamId, userId: slackUserId });
  if (linked !== undefined && teamUsers.some((user) => user.id === linked.userId)) {
    return { ok: true, recipient: { paperspaceUserId: linked.userId, slackUserId } };
  }
  const who = profile.name ?? 'The person you mentioned';
  if (email === undefined && linked === undefined) {
    return {
      ok: false,
      problem:
        `Slack shows no e-mail for ${who}, so I cannot find them in your Paperspace team: ask them to link ` +
        `their key with \`${ps} login\`, or choose them in the form (\`${ps} create\`).`,
    };
  }
  const why =
    email === undefined
      ? 'the key they linked is of another Paperspace account'
      : `none of its users has ${profile.email}, the e-mail on their Slack profile`;
  return {
    ok: false,
    problem:
      `${who} is not in your Paperspace team (${why}), so the machine cannot be theirs: ` +
      'invite them to the team in the Paperspace console, or create it for a teammate who is in it.',
  };
}

/** The person's Slack user for the bot's owner record: the one named, else the asker. */
export function ownerOf(asker: SlackUser, recipient: Recipient | undefined): CreatedOwner {
  if (recipient?.slackUserId === undefined) return asker;
  return {
    teamId: asker.teamId,
    userId: recipient.slackUserId,
    paperspaceUserId: recipient.paperspaceUserId,
  };
}
