// Installed in many workspaces by OAuth, end to end: the real Bolt receiver behind startBot, the fake
// Slack answering the install flow as Slack documents it (oauth.v2.access issues a token per workspace,
// and the Web API refuses any other), signed requests for each workspace, and the scheduler's own posts.
import { randomBytes } from 'node:crypto';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type RunningBot, startBot } from '../../src/bot.js';
import { createLogger } from '../../src/logger.js';
import { manualTimers } from '../../src/scheduler/scheduler.js';
import { SLACK_INSTALL_PATH, SLACK_OAUTH_REDIRECT_PATH } from '../../src/slack/app.js';
import { SLASH_COMMAND } from '../../src/slack/ids.js';
import { BOT_SCOPES } from '../../src/slack/scopes.js';
import { openStore, type Store } from '../../src/store/store.js';
import { createKeyVault } from '../../src/vault/key-vault.js';
import { type FakeSlack, startFakeSlack } from '../support/fake-slack.js';
import type { FakeInstall } from '../support/fake-slack-oauth.js';
import { createManualCron } from '../support/manual-cron.js';
import { slackSignature } from '../support/slack-requests.js';
import { connectSlackbot, resultText } from '../support/slackbot-client.js';

const CLIENT_ID = '1111111111111.2222222222222';
const CLIENT_SECRET = 'oauth-e2e-client-secret';
const STATE_SECRET = 'oauth-e2e-state-secret-0123456789';
const SIGNING_SECRET = 'oauth-e2e-signing-secret';

const ACME: FakeInstall = { team: { id: 'T0ACME', name: 'Acme Robotics' }, installerUserId: 'U0ACMEADM' };
const BETA: FakeInstall = { team: { id: 'T0BETA', name: 'Beta Labs' }, installerUserId: 'U0BETAADM' };
const GRID: FakeInstall = {
  enterprise: { id: 'E0GRID', name: 'Grid Corp' },
  isEnterpriseInstall: true,
  installerUserId: 'W0GRIDADM',
};

let slack: FakeSlack;
let store: Store;
let bot: RunningBot;
let base: string;

beforeEach(async () => {
  slack = await startFakeSlack({ oauth: { clientId: CLIENT_ID, clientSecret: CLIENT_SECRET } });
  store = await openStore('sqlite::memory:');
  const vault = createKeyVault({ keys: [randomBytes(32)], store, now: Date.now });
  bot = await startBot({
    slack: {
      mode: 'oauth',
      clientId: CLIENT_ID,
      clientSecret: CLIENT_SECRET,
      stateSecret: STATE_SECRET,
      signingSecret: SIGNING_SECRET,
      apiUrl: slack.apiUrl,
      authorizationUrl: `${slack.url}/oauth/v2/authorize`,
    },
    // Nothing here reaches Paperspace: opening the login modal and expiring a request need no key.
    paperspace: { apiUrl: 'http://127.0.0.1:9/v1', graphqlUrl: 'http://127.0.0.1:9/graphql' },
    port: 0,
    store,
    vault,
    logger: createLogger({ level: 'silent' }),
    scheduler: {
      pollIntervalMs: 5000,
      timers: manualTimers,
      cron: createManualCron(Date.now),
      replicaId: 'oauth-e2e',
      slackPacing: null,
    },
    observability: { processMetrics: false },
  });
  base = `http://127.0.0.1:${bot.port}`;
});

afterEach(async () => {
  await bot.stop();
  await store.close();
  await slack.close();
});

/** The install flow as a browser goes through it; returns the page the redirect shows. */
async function install(who: FakeInstall): Promise<{ status: number; page: string }> {
  const start = await fetch(`${base}${SLACK_INSTALL_PATH}`, { redirect: 'manual' });
  expect(start.status).toBe(302);
  const authorizeUrl = start.headers.get('location') ?? '';
  const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
  const state = new URL(authorizeUrl).searchParams.get('state') ?? '';
  const code = slack.oauth.approve(authorizeUrl, who);
  const back = await fetch(
    `${base}${SLACK_OAUTH_REDIRECT_PATH}?code=${code}&state=${encodeURIComponent(state)}`,
    {
      headers: { cookie },
    },
  );
  return { status: back.status, page: await back.text() };
}

const tokenOf = (who: FakeInstall) => {
  const issued = slack.oauth
    .issued()
    .filter((token) => (token.team ?? token.enterprise) === (who.team ?? who.enterprise));
  return issued.at(-1)?.token;
};

function signed(payload: Record<string, unknown>, form: boolean): RequestInit {
  const body = form
    ? new URLSearchParams(payload as Record<string, string>).toString()
    : JSON.stringify(payload);
  const timestamp = Math.floor(Date.now() / 1000);
  return {
    method: 'POST',
    body,
    headers: {
      'content-type': form ? 'application/x-www-form-urlencoded' : 'application/json',
      'x-slack-request-timestamp': String(timestamp),
      'x-slack-signature': slackSignature(SIGNING_SECRET, timestamp, body),
    },
  };
}

let sequence = 0;
/** `/ps login` typed by a person of a workspace (of an organisation, on Enterprise Grid). */
/** The body of the last command's answer: what Slack shows the person who typed it. */
let lastAnswer = '';

async function login(teamId: string, userId: string, enterpriseId?: string): Promise<number> {
  sequence += 1;
  const command = {
    token: 'legacy-verification-token',
    team_id: teamId,
    team_domain: teamId.toLowerCase(),
    ...(enterpriseId ? { enterprise_id: enterpriseId, enterprise_name: 'Grid Corp' } : {}),
    channel_id: 'C0GENERAL',
    channel_name: 'general',
    user_id: userId,
    user_name: 'someone',
    command: SLASH_COMMAND,
    text: 'login',
    api_app_id: 'A0FAKE',
    is_enterprise_install: enterpriseId ? 'true' : 'false',
    response_url: slack.responseUrl(`login-${sequence}`),
    trigger_id: `trigger-${sequence}-${Date.now()}`,
  };
  const response = await fetch(`${base}/slack/events`, signed(command, true));
  lastAnswer = await response.text();
  return response.status;
}

async function uninstalled(teamId: string, enterprise?: { id: string; orgWide: boolean }): Promise<void> {
  sequence += 1;
  const payload = {
    token: 'legacy-verification-token',
    team_id: teamId,
    ...(enterprise ? { enterprise_id: enterprise.id } : {}),
    api_app_id: 'A0FAKE',
    event: { type: 'app_uninstalled', event_ts: `${Math.floor(Date.now() / 1000)}.000100` },
    type: 'event_callback',
    event_id: `Ev${sequence}`,
    event_time: Math.floor(Date.now() / 1000),
    authorizations: [
      {
        enterprise_id: enterprise?.id ?? null,
        team_id: enterprise?.orgWide ? null : teamId,
        user_id: 'U0BOT',
        is_bot: true,
        is_enterprise_install: enterprise?.orgWide === true,
      },
    ],
  };
  const response = await fetch(`${base}/slack/events`, signed(payload, false));
  expect(response.status).toBe(200);
}

/** Waits for the modal /ps login opens, and returns the token it was opened with. */
async function loginModalToken(
  teamId: string,
  userId: string,
  enterpriseId?: string,
): Promise<string | undefined> {
  const before = slack.calls('views.open').length;
  expect(await login(teamId, userId, enterpriseId)).toBe(200);
  const call = await slack.waitFor(
    (candidate) =>
      candidate.method === 'views.open' && slack.calls('views.open').indexOf(candidate) >= before,
  );
  return call.token;
}

/** An approval request of a person that is due to expire: the scheduler tells them, in their workspace. */
async function dueRequest(teamId: string, requesterId: string): Promise<void> {
  const now = Date.now();
  await store.approvals.create({
    teamId,
    requesterId,
    paperspaceTeamId: 'te1',
    kind: 'create',
    machineId: null,
    machineName: `${requesterId.toLowerCase()}-gpu`,
    ownerId: null,
    details: { params: { machineName: `${requesterId.toLowerCase()}-gpu`, machineType: 'C4' } },
    channel: null,
    createdAt: now - 60_000,
    expiresAt: now - 1,
  });
}

const postsTo = (userId: string) =>
  slack
    .calls('chat.postMessage')
    .filter((call) => call.args.channel === userId || call.args.channel === `D${userId.slice(1)}`);

describe('installing in many workspaces by OAuth', () => {
  it('installs two workspaces, each page saying what to do next, with the bot scopes and tokens sealed', async () => {
    const acme = await install(ACME);
    expect(acme.status).toBe(200);
    expect(acme.page).toContain('installed in Acme Robotics');
    expect(acme.page).toContain('/ps</code> <code>login');
    expect((await install(BETA)).page).toContain('installed in Beta Labs');

    const exchange = slack.calls('oauth.v2.access');
    expect(exchange).toHaveLength(2);
    expect(exchange.every((call) => call.answer?.ok)).toBe(true);
    expect(String(exchange[0]?.answer?.scope).split(',').sort()).toEqual([...BOT_SCOPES].sort());
    // Sealed at rest: neither token appears in the stored row.
    const row = await store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0ACME' });
    expect(row?.sealed.ciphertext.toString('latin1')).not.toContain(tokenOf(ACME));
  });

  it('answers a reloaded redirect with a page saying the link was used, keeping the one installation', async () => {
    await install(ACME);
    // The browser's own install of Beta, finished once, then its redirect page reloaded: the same code
    // with the same state and its cookie.
    const start = await fetch(`${base}${SLACK_INSTALL_PATH}`, { redirect: 'manual' });
    const authorizeUrl = start.headers.get('location') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const state = new URL(authorizeUrl).searchParams.get('state') ?? '';
    const redirect = `${base}${SLACK_OAUTH_REDIRECT_PATH}?code=${slack.oauth.approve(authorizeUrl, BETA)}&state=${encodeURIComponent(state)}`;
    const first = await fetch(redirect, { headers: { cookie } });
    expect(first.status).toBe(200);
    const installed = await store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0BETA' });

    const again = await fetch(redirect, { headers: { cookie } });
    expect(again.status).toBe(400);
    const page = await again.text();
    expect(page).toContain('was not installed');
    expect(page).toContain('was already used');
    // Refused on the state, before Slack was asked to exchange anything again.
    expect(slack.calls('oauth.v2.access').map((call) => call.answer?.error ?? 'ok')).toEqual(['ok', 'ok']);
    // Nothing stored twice, nothing overwritten: Beta keeps the one installation, and its token works.
    expect(await store.slackInstallations.get({ enterpriseId: undefined, teamId: 'T0BETA' })).toEqual(
      installed,
    );
    expect(slack.oauth.issued().filter((token) => token.team?.id === 'T0BETA')).toHaveLength(1);
    expect(await loginModalToken('T0BETA', 'U0BETA1')).toBe(tokenOf(BETA));
  });

  it("refuses a finished install's state with a fresh approval, within its ten minutes", async () => {
    const start = await fetch(`${base}${SLACK_INSTALL_PATH}`, { redirect: 'manual' });
    const authorizeUrl = start.headers.get('location') ?? '';
    const cookie = (start.headers.get('set-cookie') ?? '').split(';')[0] ?? '';
    const state = encodeURIComponent(new URL(authorizeUrl).searchParams.get('state') ?? '');
    const redirect = (code: string) => `${base}${SLACK_OAUTH_REDIRECT_PATH}?code=${code}&state=${state}`;
    expect(
      (await fetch(redirect(slack.oauth.approve(authorizeUrl, ACME)), { headers: { cookie } })).status,
    ).toBe(200);
    // Someone who saw that redirect URL replays its state with an approval of their own workspace.
    const replay = await fetch(redirect(slack.oauth.approve(authorizeUrl, BETA)), { headers: { cookie } });
    expect(replay.status).toBe(400);
    expect(await replay.text()).toContain('was already used');
    expect(await store.slackInstallations.serving('T0BETA')).toBeUndefined();
    expect(slack.calls('oauth.v2.access')).toHaveLength(1);
  });

  it('refuses a redirect without the state cookie the install page set, before asking Slack', async () => {
    const start = await fetch(`${base}${SLACK_INSTALL_PATH}`, { redirect: 'manual' });
    const authorizeUrl = start.headers.get('location') ?? '';
    const state = new URL(authorizeUrl).searchParams.get('state') ?? '';
    const code = slack.oauth.approve(authorizeUrl, BETA);
    const noCookie = await fetch(
      `${base}${SLACK_OAUTH_REDIRECT_PATH}?code=${code}&state=${encodeURIComponent(state)}`,
    );
    expect(noCookie.status).toBe(400);
    expect(await noCookie.text()).toContain('finished in another browser');
    expect(slack.calls('oauth.v2.access')).toEqual([]);
    expect(await store.slackInstallations.serving('T0BETA')).toBeUndefined();
  });

  it('answers each workspace with its own token, and a workspace that never installed with a sentence', async () => {
    await install(ACME);
    await install(BETA);
    expect(await loginModalToken('T0ACME', 'U0ACME1')).toBe(tokenOf(ACME));
    expect(await loginModalToken('T0BETA', 'U0BETA1')).toBe(tokenOf(BETA));

    const callsBefore = slack.calls().length;
    expect(await login('T0NEVER', 'U0NEVER1')).toBe(200);
    expect(JSON.parse(lastAnswer)).toEqual({
      response_type: 'ephemeral',
      text: expect.stringContaining('The Paperspace bot is not installed in this workspace'),
    });
    await new Promise((resolve) => setTimeout(resolve, 300));
    // No Web API call at all: not with another workspace's token, not with any.
    expect(slack.calls().slice(callsBefore)).toEqual([]);
    expect(slack.responses(`login-${sequence}`)).toEqual([]);
  });

  it('posts what the scheduler posts for a workspace with that workspace token', async () => {
    await install(ACME);
    await install(BETA);
    await dueRequest('T0ACME', 'U0ACME2');
    await dueRequest('T0BETA', 'U0BETA2');
    await bot.scheduler.tick();

    const acmePosts = postsTo('U0ACME2');
    const betaPosts = postsTo('U0BETA2');
    expect(acmePosts.length).toBeGreaterThan(0);
    expect(betaPosts.length).toBeGreaterThan(0);
    expect(acmePosts.every((call) => call.token === tokenOf(ACME) && call.answer?.ok)).toBe(true);
    expect(betaPosts.every((call) => call.token === tokenOf(BETA) && call.answer?.ok)).toBe(true);
  });

  it('never uses an uninstalled workspace token again, and keeps serving the other workspace', async () => {
    await install(ACME);
    await install(BETA);
    const acmeToken = tokenOf(ACME);
    await dueRequest('T0ACME', 'U0ACME3');
    slack.oauth.revoke(acmeToken ?? '');
    await uninstalled('T0ACME');
    await expect.poll(() => store.slackInstallations.serving('T0ACME')).toBeUndefined();
    // The purge took the workspace's waiting work with it.
    expect(await store.approvals.dueToExpire(Date.now(), 10)).toEqual([]);

    await login('T0ACME', 'U0ACME3');
    await dueRequest('T0ACME', 'U0ACME3');
    await bot.scheduler.tick().catch(() => undefined);
    expect(await loginModalToken('T0BETA', 'U0BETA3')).toBe(tokenOf(BETA));
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(slack.calls().filter((call) => call.token === acmeToken && call.method !== 'auth.test')).toEqual(
      [],
    );
  });

  it('serves two workspaces of an organisation from one org-wide install, whose page sends the admin to add it', async () => {
    const org = await install(GRID);
    expect(org.page).toContain('installed org-wide on Grid Corp');
    expect(org.page).toContain('Add to more workspaces');
    const gridToken = tokenOf(GRID);

    expect(await loginModalToken('T0GRIDA', 'W0GRID1', 'E0GRID')).toBe(gridToken);
    expect(await loginModalToken('T0GRIDB', 'W0GRID2', 'E0GRID')).toBe(gridToken);
    await dueRequest('T0GRIDB', 'W0GRID2');
    await bot.scheduler.tick();
    const posts = postsTo('W0GRID2');
    expect(posts.length).toBeGreaterThan(0);
    expect(posts.every((call) => call.token === gridToken && call.answer?.ok)).toBe(true);

    // Uninstalled org-wide: both workspaces' data and the installation go.
    await uninstalled('T0GRIDA', { id: 'E0GRID', orgWide: true });
    await expect.poll(() => store.slackInstallations.serving('T0GRIDB')).toBeUndefined();
    expect(await store.slackInstallations.get({ enterpriseId: 'E0GRID', teamId: undefined })).toBeUndefined();
  });

  it("answers Slackbot's calls only from a workspace the app is installed in, or from its organisation", async () => {
    await install(ACME);
    await install(GRID);
    const slackbot = await connectSlackbot(base, SIGNING_SECRET);
    try {
      const fromAcme = await slackbot.call('list_machines', {}, { user_id: 'U0ACMEDEV', team_id: 'T0ACME' });
      // Installed: the person is known to be of Acme, and only lacks a key.
      expect(resultText(fromAcme)).toContain('/ps login');
      const fromBeta = await slackbot.call('list_machines', {}, { user_id: 'U0ACMEDEV', team_id: 'T0BETA' });
      expect(resultText(fromBeta)).toMatch(/not installed in this Slack workspace/);
      const fromGrid = await slackbot.call(
        'list_machines',
        {},
        { user_id: 'W0GRIDDEV', team_id: 'T0GRIDA', enterprise_id: 'E0GRID' },
      );
      expect(resultText(fromGrid)).toContain('/ps login');
    } finally {
      await slackbot.close();
    }
  });
});
