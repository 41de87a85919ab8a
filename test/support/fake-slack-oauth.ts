// The fake Slack's side of OAuth distribution, from Slack's documentation of the install flow
// (docs.slack.dev/authentication/installing-with-oauth) and of oauth.v2.access: a person approves the
// app on Slack's authorize page (approve() stands in for that page and returns the code Slack would put
// in the redirect), the app exchanges the code once, with its client id and secret, for a bot token of
// that workspace (or organisation, for an org-wide install on Enterprise Grid), and from then on the Web
// API accepts only tokens it issued and has not revoked.

/** What the person installing approves: a workspace, or a whole organisation (org-wide install). */
export interface FakeInstall {
  /** The workspace; absent for an org-wide install, whose response has `team: null`. */
  team?: { id: string; name: string };
  /** The Enterprise Grid organisation; absent outside Enterprise Grid (`enterprise: null`). */
  enterprise?: { id: string; name: string };
  isEnterpriseInstall?: boolean;
  /** Who clicked Allow. */
  installerUserId: string;
}

/** A bot token as issued, with the installation it belongs to. */
export interface IssuedToken extends FakeInstall {
  token: string;
  botUserId: string;
  revoked: boolean;
}

export interface FakeSlackOAuth {
  /**
   * The person approves the app on Slack's authorize page (`authorizeUrl`, where /slack/install sent
   * them); returns the code Slack adds to the redirect. Refuses a URL with another client id or no scope.
   */
  approve(authorizeUrl: string, install: FakeInstall): string;
  /** Tokens issued so far, oldest first. */
  issued(): IssuedToken[];
  /** Revokes a token (as uninstalling the app does): calls with it get `token_revoked`. */
  revoke(token: string): void;
}

type Answer = Record<string, unknown> & { ok: boolean };

/** Slack's error for a token: `invalid_auth` for one never issued, `token_revoked` once revoked. */
export type TokenCheck = { ok: true; issued: IssuedToken | undefined } | { ok: false; error: string };

export function createFakeSlackOAuth(credentials: { clientId: string; clientSecret: string }, appId: string) {
  const codes = new Map<
    string,
    FakeInstall & { scope: string; redirectUri: string | undefined; used: boolean }
  >();
  const tokens = new Map<string, IssuedToken>();
  let counter = 0;
  const next = () => {
    counter += 1;
    return counter;
  };

  const api: FakeSlackOAuth = {
    approve(authorizeUrl, install) {
      const url = new URL(authorizeUrl);
      if (url.searchParams.get('client_id') !== credentials.clientId) {
        throw new Error(`fake Slack: the authorize URL names client_id ${url.searchParams.get('client_id')}`);
      }
      const scope = url.searchParams.get('scope') ?? '';
      if (scope === '') throw new Error('fake Slack: the authorize URL asks for no bot scope');
      const code = `fake-code-${next()}`;
      const redirectUri = url.searchParams.get('redirect_uri') ?? undefined;
      codes.set(code, { ...install, scope, redirectUri, used: false });
      return code;
    },
    issued: () => [...tokens.values()],
    revoke(token) {
      const issued = tokens.get(token);
      if (issued) issued.revoked = true;
    },
  };

  /** oauth.v2.access (docs.slack.dev/reference/methods/oauth.v2.access): client id and secret, code once. */
  const access = (args: Record<string, unknown>, basicAuth: string | undefined): Answer => {
    const [basicId, basicSecret] = basicAuth ? Buffer.from(basicAuth, 'base64').toString().split(':') : [];
    const clientId = typeof args.client_id === 'string' ? args.client_id : basicId;
    const clientSecret = typeof args.client_secret === 'string' ? args.client_secret : basicSecret;
    if (clientId !== credentials.clientId) return { ok: false, error: 'invalid_client_id' };
    if (clientSecret !== credentials.clientSecret) return { ok: false, error: 'bad_client_secret' };
    const code = typeof args.code === 'string' ? codes.get(args.code) : undefined;
    // A code works once: a replayed redirect gets invalid_code, as on Slack.
    if (code === undefined || code.used) return { ok: false, error: 'invalid_code' };
    if (code.redirectUri !== undefined && args.redirect_uri !== code.redirectUri) {
      return { ok: false, error: 'bad_redirect_uri' };
    }
    code.used = true;
    const n = next();
    const issued: IssuedToken = {
      ...code,
      token: `xoxb-${code.team?.id ?? code.enterprise?.id}-${n}-issued`,
      botUserId: `U0BOT${n}`,
      revoked: false,
    };
    tokens.set(issued.token, issued);
    return {
      ok: true,
      access_token: issued.token,
      token_type: 'bot',
      scope: code.scope,
      bot_user_id: issued.botUserId,
      app_id: appId,
      team: code.team ?? null,
      enterprise: code.enterprise ?? null,
      authed_user: { id: code.installerUserId },
      is_enterprise_install: code.isEnterpriseInstall === true,
    };
  };

  const check = (token: string): TokenCheck => {
    const issued = tokens.get(token);
    if (issued === undefined) return { ok: false, error: 'invalid_auth' };
    if (issued.revoked) return { ok: false, error: 'token_revoked' };
    return { ok: true, issued };
  };

  return { api, access, check };
}
