// `/ps list owner=@sam` (or `owner=Sam`, a name or e-mail): the person as Paperspace knows them, so the
// list asks getMachines for `userId`. A mention is the Paperspace user of the key that person linked
// (src/domain/machine-people.ts's rule: the bot knows people by their linked keys); a name is looked up
// among the users the asker's key can list. Where machines name no owner (API v1), the filter cannot
// work, and the person is told so rather than shown an empty or unfiltered list.
import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import type { User } from '../../paperspace/schemas.js';
import { escapeMrkdwn } from '../../slack/block-kit/text.js';
import { SLASH_COMMAND } from '../../slack/ids.js';
import type { Interaction } from '../../slack/interaction.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { RawFilters } from './listings.js';

const MENTION = /^<@([UW][A-Z0-9]+)>$/;

/** The filters with `owner` turned into getMachines' `userId`; unchanged without one. */
export async function resolveOwnerFilter(
  interaction: Pick<Interaction, 'user'>,
  deps: { vault: Pick<KeyVault, 'account'> },
  client: PaperspaceClient,
  filters: RawFilters,
): Promise<RawFilters> {
  const { owner, ...rest } = filters;
  if (owner === undefined) return filters;
  if (client.capabilities.whoAmI) {
    throw new UserFacingError(
      "Paperspace's API v1 does not say who owns a machine, so I cannot filter machines by owner. " +
        `\`${SLASH_COMMAND} spend\` groups them by the people who created them through me.`,
    );
  }
  const userId = await ownerId(interaction, deps, client, owner);
  if (rest.userId !== undefined && rest.userId !== userId) {
    throw new UserFacingError('owner= and userId= name two different people: give one of them.');
  }
  return { ...rest, userId };
}

async function ownerId(
  { user }: Pick<Interaction, 'user'>,
  deps: { vault: Pick<KeyVault, 'account'> },
  client: PaperspaceClient,
  owner: string,
): Promise<string> {
  // An error's text is shown escaped, so it says "the person you mentioned" rather than a mention.
  const mentioned = MENTION.exec(owner)?.[1];
  if (mentioned !== undefined) {
    const account = await deps.vault.account({ teamId: user.teamId, userId: mentioned });
    if (account === undefined) {
      throw new UserFacingError(
        'The person you mentioned has not linked a Paperspace key, so I do not know who they are on Paperspace: ' +
          `filter by their name instead (\`owner="First Last"\`), or ask them to run \`${SLASH_COMMAND} login\`.`,
      );
    }
    return account.userId;
  }
  const typed = owner.replace(/^@/, '').trim().toLowerCase();
  const users = await client.users.list({});
  const matches = users.filter((candidate) => namesOf(candidate).includes(typed));
  const [only] = matches;
  if (only !== undefined && matches.length === 1) return only.id;
  if (matches.length === 0) {
    throw new UserFacingError(
      `No Paperspace user your key can see is called ${escapeMrkdwn(owner)}: give a first name, a full name or an e-mail, or mention them (\`owner=@sam\`).`,
    );
  }
  const named = matches.map((candidate) => escapeMrkdwn(fullName(candidate))).join(', ');
  throw new UserFacingError(
    `${escapeMrkdwn(owner)} matches ${matches.length} people (${named}): give a full name or an e-mail.`,
  );
}

function fullName(user: User): string {
  const name = `${user.firstname} ${user.lastname}`.trim();
  return name === '' ? user.email : `${name} (${user.email})`;
}

function namesOf(user: User): string[] {
  return [user.firstname, `${user.firstname} ${user.lastname}`.trim(), user.email, user.id].map((name) =>
    name.toLowerCase(),
  );
}
