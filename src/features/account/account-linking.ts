// Linking a Slack user to their own Paperspace key: the key (and the access token, when given) is
// proved against Paperspace before anything is stored, and the account it belongs to is read from the
// answer, so /ps whoami can say whose key it is.
//
// The contract has no "who am I" call. getUsers lists the users of the caller's account: on an
// individual account that is the caller alone, on a team every member. So the key proves the account,
// and on a team the person is the member whose e-mail is on their own Slack profile: a typed address
// must be that one, so nobody can link under a teammate's name (whoami, access grants and reminders
// go by it), and an empty one defaults to it.
//
// v1 has one: `GET /auth/session` names the key's user and team, so a v1 key is linked without an
// e-mail (the client's `whoAmI` capability says which way applies).

import { UserFacingError } from '../../errors/user-facing-error.js';
import type { PaperspaceClient } from '../../paperspace/client.js';
import {
  PaperspaceAuthenticationError,
  PaperspaceError,
  PaperspacePermissionError,
  PaperspaceUnknownKeyError,
} from '../../paperspace/errors.js';
import type { RequestOptions } from '../../paperspace/http.js';
import type { User } from '../../paperspace/schemas.js';
import type { AuditTrail } from '../../store/audit-trail.js';
import type { SlackUser } from '../../store/slack-user.js';
import type { PaperspaceAccount } from '../../store/vault-entries.js';
import type { KeyVault } from '../../vault/key-vault.js';
import type { PaperspaceClientFactory } from '../../vault/paperspace-clients.js';

/** What the person typed into the login form, before any check. */
interface LinkRequest {
  apiKey?: string | undefined;
  accessToken?: string | undefined;
  email?: string | undefined;
  /** The e-mail on the person's Slack profile (users:read.email); undefined when Slack shows none. */
  slackEmail?: string | undefined;
}

type CredentialField = 'apiKey' | 'accessToken' | 'email';
/** Why a field was refused, in a sentence for the person, per field. */
export type LinkProblems = Partial<Record<CredentialField, string>>;

export interface LinkedResult {
  ok: true;
  account: PaperspaceAccount;
  maskedKey: string;
  hasAccessToken: boolean;
}
export type LinkOutcome = LinkedResult | { ok: false; problems: LinkProblems };

export interface AccountLinking {
  /** Problems that need no API call (an empty key, spaces inside a key); empty when there are none. */
  formProblems(request: LinkRequest): LinkProblems;
  /** Checks the credentials with Paperspace and stores them only if they hold. Audited `account.link`. */
  link(user: SlackUser, request: LinkRequest): Promise<LinkOutcome>;
  /** Forgets the user's key; audited `account.unlink`. Undefined when nothing was linked. */
  unlink(user: SlackUser): Promise<{ maskedKey: string | undefined } | undefined>;
}

export interface AccountLinkingDeps {
  clients: PaperspaceClientFactory;
  vault: KeyVault;
  audit: AuditTrail;
  /** How long the whole check may take before it counts as Paperspace not answering. */
  checkTimeoutMs?: number;
}

const DEFAULT_CHECK_TIMEOUT_MS = 20_000;

/** Thrown inside the audited action so the audit records the refusal; never leaves this module. */
class CredentialsRefused extends UserFacingError {
  override name = 'CredentialsRefused';

  constructor(readonly problems: LinkProblems) {
    super(Object.values(problems).join(' '));
  }
}

export function createAccountLinking(deps: AccountLinkingDeps): AccountLinking {
  const checkTimeoutMs = deps.checkTimeoutMs ?? DEFAULT_CHECK_TIMEOUT_MS;

  const verify = async (
    apiKey: string,
    accessToken: string | undefined,
    email: string | undefined,
    slackEmail: string | undefined,
  ): Promise<{ account: PaperspaceAccount } | { problems: LinkProblems }> => {
    const client = deps.clients.forCredentials(
      accessToken === undefined ? { apiKey } : { apiKey, accessToken },
    );
    // One retry at most: a person is waiting, and a key check is cheap to repeat by hand.
    const options: RequestOptions = { signal: AbortSignal.timeout(checkTimeoutMs), maxRetries: 1 };
    if (client.capabilities.whoAmI) return verifyByIdentity(client, options, checkTimeoutMs);
    const [users, token] = await Promise.allSettled([
      client.users.list({}, options),
      accessToken === undefined ? Promise.resolve() : proveAccessToken(client, options),
    ]);
    const problems: LinkProblems = {};
    if (token.status === 'rejected')
      problems.accessToken = refusal(token.reason, 'access token', checkTimeoutMs);
    if (users.status === 'rejected') {
      problems.apiKey = refusal(users.reason, 'API key', checkTimeoutMs);
      return { problems };
    }
    const identified = identify(users.value, email, slackEmail);
    if ('problem' in identified) return { problems: { ...problems, [identified.field]: identified.problem } };
    return Object.keys(problems).length > 0 ? { problems } : { account: identified.account };
  };

  return {
    formProblems,

    async link(user, request) {
      const problems = formProblems(request);
      if (Object.keys(problems).length > 0) return { ok: false, problems };
      const apiKey = (request.apiKey ?? '').trim();
      const accessToken = nonEmpty(request.accessToken);
      const email = nonEmpty(request.email);
      try {
        const account = await deps.audit.run({ user, action: 'account.link' }, async () => {
          const checked = await verify(apiKey, accessToken, email, nonEmpty(request.slackEmail));
          if ('problems' in checked) throw new CredentialsRefused(checked.problems);
          await deps.vault.link(user, {
            apiKey,
            ...(accessToken ? { accessToken } : {}),
            account: checked.account,
          });
          return checked.account;
        });
        const maskedKey = (await deps.vault.maskedKey(user)) ?? '••••';
        return { ok: true, account, maskedKey, hasAccessToken: accessToken !== undefined };
      } catch (error) {
        if (error instanceof CredentialsRefused) return { ok: false, problems: error.problems };
        throw error;
      }
    },

    async unlink(user) {
      if ((await deps.vault.account(user)) === undefined) return undefined;
      // A record that no longer opens (VAULT_KEY lost its key) must still be forgettable.
      const maskedKey = await deps.vault.maskedKey(user).catch(() => undefined);
      await deps.audit.run({ user, action: 'account.unlink' }, () => deps.vault.unlink(user));
      return { maskedKey };
    },
  };
}

/**
 * A key that says who it belongs to (v1's `GET /auth/session`) needs no e-mail: its answer is the
 * account, and the same key reaches shared drives, so there is no access token to prove.
 */
async function verifyByIdentity(
  client: PaperspaceClient,
  options: RequestOptions,
  timeoutMs: number,
): Promise<{ account: PaperspaceAccount } | { problems: LinkProblems }> {
  try {
    const identity = await client.account.whoAmI(options);
    if (identity === undefined) {
      return { problems: { apiKey: 'Paperspace accepted this key but did not say whose it is.' } };
    }
    return { account: { userId: identity.userId, email: identity.email, teamId: identity.teamId } };
  } catch (error) {
    return { problems: { apiKey: refusal(error, 'API key', timeoutMs) } };
  }
}

function nonEmpty(value: string | undefined): string | undefined {
  const trimmed = value?.trim();
  return trimmed ? trimmed : undefined;
}

function formProblems(request: LinkRequest): LinkProblems {
  const problems: LinkProblems = {};
  const apiKey = request.apiKey?.trim() ?? '';
  if (apiKey === '') problems.apiKey = 'Paste your Paperspace API key.';
  else if (/\s/.test(apiKey))
    problems.apiKey = 'An API key has no spaces or line breaks inside: paste it again.';
  const accessToken = request.accessToken?.trim() ?? '';
  if (/\s/.test(accessToken)) {
    problems.accessToken = 'An access token has no spaces or line breaks inside: paste it again.';
  }
  const email = request.email?.trim() ?? '';
  if (email !== '' && !/^[^\s@]+@[^\s@]+$/.test(email)) {
    problems.email = 'Enter the e-mail address of your Paperspace user, like you@example.com.';
  }
  return problems;
}

/**
 * Listing shared drives proves the token authenticates. Only team administrators may list them, so
 * a refusal (403) still means Paperspace knew the token; only 401 means it is bad.
 */
async function proveAccessToken(client: PaperspaceClient, options: RequestOptions): Promise<void> {
  try {
    await client.sharedDrives.list({ first: 1 }, options);
  } catch (error) {
    if (error instanceof PaperspacePermissionError) return;
    throw error;
  }
}

function refusal(error: unknown, credential: 'API key' | 'access token', timeoutMs: number): string {
  if (error instanceof PaperspaceUnknownKeyError) {
    return (
      'Paperspace does not know this API key: it says nobody is logged in with it, so nothing was saved. ' +
      'Check that you pasted all of it and that it was not revoked (Paperspace console, Team settings, API keys).'
    );
  }
  if (error instanceof PaperspaceAuthenticationError) {
    return `Paperspace does not accept this ${credential} (401). Check that you pasted all of it.`;
  }
  if (error instanceof PaperspaceError) {
    return `The ${credential} could not be checked, so nothing was saved. ${error.message}`;
  }
  if (error instanceof Error && error.name === 'TimeoutError') {
    return (
      `Paperspace did not answer within ${Math.round(timeoutMs / 1000)} seconds, so the ${credential} ` +
      'could not be checked and nothing was saved. Try again in a moment.'
    );
  }
  throw error;
}

type Identified = { account: PaperspaceAccount } | { field: CredentialField; problem: string };

function identify(users: User[], email: string | undefined, slackEmail: string | undefined): Identified {
  const accountOf = (user: User): Identified => ({
    account: { userId: user.id, email: user.email, teamId: user.teamId },
  });
  const [only, ...others] = users;
  if (only === undefined) {
    return {
      field: 'apiKey',
      problem: 'Paperspace accepted this key but listed no user for it, so it cannot be linked.',
    };
  }
  if (others.length === 0) {
    if (email === undefined || only.email.toLowerCase() === email.toLowerCase()) return accountOf(only);
    return {
      field: 'email',
      problem: `This key belongs to another e-mail address. Leave this empty, or check that you pasted your own key.`,
    };
  }
  return identifyTeamMember(users, email, slackEmail);
}

/** On a team key, the member whose e-mail is the one on the person's own Slack profile. */
function identifyTeamMember(
  users: User[],
  email: string | undefined,
  slackEmail: string | undefined,
): Identified {
  const wanted = (email ?? slackEmail)?.toLowerCase();
  if (wanted === undefined) {
    return {
      field: 'email',
      problem: `This is a team key (${users.length} users): enter your Paperspace e-mail so the bot knows which member you are.`,
    };
  }
  const match = users.find((user) => user.email.toLowerCase() === wanted);
  if (match === undefined) {
    return {
      field: 'email',
      problem: `No user of this key's account has ${email === undefined ? 'the e-mail of your Slack profile' : 'that e-mail'} (it has ${users.length} users). Enter the e-mail you sign in to Paperspace with.`,
    };
  }
  if (slackEmail === undefined) {
    return {
      field: 'email',
      problem:
        'Slack shows no e-mail on your profile, so the bot cannot confirm which member of the team you are. ' +
        'A team key is linked only to the member whose e-mail is on your Slack profile; ask your Slack admin.',
    };
  }
  if (match.email.toLowerCase() !== slackEmail.toLowerCase()) {
    return {
      field: 'email',
      problem:
        'That is not the e-mail on your Slack profile. A team key is linked only to the member whose ' +
        'e-mail is on your own Slack profile: enter yours, or leave this empty.',
    };
  }
  return { account: { userId: match.id, email: match.email, teamId: match.teamId } };
}
