// `/ps list owner=@sam` (or `owner=Sam`, a name or e-mail): the machines the owner rule
// (domain/machine-owner.ts) gives that person. A mention is the Slack person, with the Paperspace user
// of the key they linked; a name is looked up among the users the asker's key can list.
// - The legacy API names each machine's owner: the list asks getMachines for that `userId`.
// - v1 names none: the machines are listed, then kept when the rule says they are that person's (one
//   read of the bot's records, which the cards' buttons then use too).
// A person the asker's team does not hold (they linked another team's key) owns none of its
// machines: they are told so, rather than shown an empty list that looks like a bug.
import { isOwnedBy, machineOwners, type OwnerCandidate, type OwnerOf } from '../../domain/machine-owner.js';
import { paperspaceUserLabel, typedNamesOf } from '../../domain/machine-people.js';
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { Machine } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import type { Interaction } from '../../slack/interaction.js';
import { slackProfile } from '../../slack/user-profile.js';
import type { Store } from '../../store/store.js';
import type { KeyVault, LinkedAccount } from '../../vault/key-vault.js';
import type { RawFilters } from './listings.js';

const MENTION = /^<@([UW][A-Z0-9]+)>$/;

/** The listed machines the filter keeps, with their owners as the rule read them (for the buttons). */
export type NarrowByOwner = (
  machines: readonly Machine[],
) => Promise<{ machines: Machine[]; ownerOf: OwnerOf }>;

export interface OwnerFilter {
  /** The filters to send to Paperspace. */
  sent: RawFilters;
  /** On v1: keeps the owner's machines of those listed. */
  narrow?: NarrowByOwner;
}

/** The filters with `owner` turned into getMachines' `userId` (legacy) or a narrowing (v1). */
export async function resolveOwnerFilter(
  interaction: Pick<Interaction, 'user' | 'web' | 'deps'>,
  deps: { vault: Pick<KeyVault, 'account'>; store: Pick<Store, 'machineOwners'> },
  linked: { client: PaperspaceClient; account: LinkedAccount },
  filters: RawFilters,
): Promise<OwnerFilter> {
  const { owner, ...rest } = filters;
  if (owner === undefined) return { sent: filters };
  const { client } = linked;
  const person = await ownerOf(interaction, deps, linked, owner);
  if (!client.capabilities.whoAmI) {
    const userId = person.paperspaceUserId;
    if (userId === undefined) {
      throw new UserFacingError(
        'The person you mentioned has not linked a Paperspace key, so I do not know who they are on Paperspace: ' +
          `filter by their name instead (\`owner="First Last"\`), or ask them to run \`${SLASH_COMMAND} login\`.`,
      );
    }
    if (rest.userId !== undefined && rest.userId !== userId) {
      throw new UserFacingError('owner= and userId= name two different people: give one of them.');
    }
    return { sent: { ...rest, userId } };
  }
  const teamId = interaction.user.teamId;
  return {
    sent: rest,
    narrow: async (machines) => {
      const ownerOfMachine = await machineOwners(deps.store, teamId, machines);
      const kept = machines.filter((machine) => isOwnedBy(ownerOfMachine(machine), person));
      return { machines: kept, ownerOf: ownerOfMachine };
    },
  };
}

/** The person `owner=` names, as the owner rule compares people. */
async function ownerOf(
  { user, web, deps: platform }: Pick<Interaction, 'user' | 'web' | 'deps'>,
  deps: { vault: Pick<KeyVault, 'account'> },
  { client, account: askers }: { client: PaperspaceClient; account: LinkedAccount },
  owner: string,
): Promise<OwnerCandidate> {
  // An error's text is shown escaped, so it says "the person you mentioned" rather than a mention.
  const mentioned = MENTION.exec(owner)?.[1];
  if (mentioned !== undefined) {
    const account = await deps.vault.account({ teamId: user.teamId, userId: mentioned });
    if (account !== undefined && !sameTeam(account, askers)) {
      throw new UserFacingError(
        'The person you mentioned is not in your Paperspace team (the key they linked is of another ' +
          'account), so none of the machines your key lists is theirs.',
      );
    }
    if (account !== undefined) return { userId: mentioned, paperspaceUserId: account.userId };
    return { userId: mentioned, paperspaceUserId: await byProfileEmail(client, web, platform, mentioned) };
  }
  const typed = owner.replace(/^@/, '').trim().toLowerCase();
  const users = await client.users.list({});
  const matches = users.filter((candidate) => typedNamesOf(candidate).includes(typed));
  const [only] = matches;
  // No Slack person is named: a recorded owner matches by their linked Paperspace user.
  if (only !== undefined && matches.length === 1) return { userId: '', paperspaceUserId: only.id };
  if (matches.length === 0) {
    throw new UserFacingError(
      `No Paperspace user your key can see is called ${escapeMrkdwn(owner)}: give a first name, a full name or an e-mail, or mention them (\`owner=@sam\`).`,
    );
  }
  const named = matches.map((candidate) => escapeMrkdwn(paperspaceUserLabel(candidate))).join(', ');
  throw new UserFacingError(
    `${escapeMrkdwn(owner)} matches ${matches.length} people (${named}): give a full name or an e-mail.`,
  );
}

/**
 * A mentioned person who linked no key is found among the users the asker's key lists by the e-mail on
 * their Slack profile, as a create for them is; one whose e-mail none of them has is told to be outside
 * the team, rather than shown an empty list. Undefined when Slack shows no e-mail.
 */
async function byProfileEmail(
  client: PaperspaceClient,
  web: Interaction['web'],
  platform: Interaction['deps'],
  slackUserId: string,
): Promise<string | undefined> {
  const profile = await slackProfile(web, slackUserId, platform.logger);
  const email = profile.email?.toLowerCase();
  if (email === undefined) return undefined;
  const users = await client.users.list({});
  const found = users.find((candidate) => candidate.email.toLowerCase() === email);
  if (found !== undefined) return found.id;
  throw new UserFacingError(
    `${escapeMrkdwn(profile.name ?? 'The person you mentioned')} is not in your Paperspace team: none of ` +
      `the users your key can see has ${escapeMrkdwn(profile.email ?? '')}, the e-mail on their Slack ` +
      'profile, so none of the machines your key lists is theirs.',
  );
}

/** Both keys are of one Paperspace team (or one individual account); unknown teams are not told apart. */
function sameTeam(
  a: { userId: string; teamId: string | null },
  b: { userId: string; teamId: string | null },
) {
  if (a.teamId === null || b.teamId === null) return true;
  return a.teamId === b.teamId;
}
