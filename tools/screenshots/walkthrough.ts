// `npm run screenshots`: the sandbox walked through in headless Chromium as its three demo people (Ada,
// an individual account; Maya, a team administrator; Sam, a team member), once per dialect, saving the
// screens docs/sandbox.md shows into docs/screenshots/. It finds things by role and by loose patterns
// (a button whose name starts with "Stop"), not by exact sentences, so that it survives rewording; a
// step that cannot be done is reported and the others still run, and the exit code says whether all
// of them were done.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { type Browser, chromium, type Locator, type Page } from 'playwright-core';
import { createLogger } from '../../src/logger.js';
import type { Dialect } from '../../src/paperspace/dialect.js';
import { type RunningSandbox, startSandbox } from '../sandbox/start-sandbox.js';

const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const CHROMIUM_ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking'];
const OUT_DIR = fileURLToPath(new URL('../../docs/screenshots/', import.meta.url));
const VIEWPORT = { width: 1000, height: 800 };
const STEP_MS = 20_000;

const PEOPLE = {
  ada: { id: 'U0ADA', key: 'demo-key-ada-individual', token: undefined },
  // Her access token is how the contract's Paperspace shows she administers the team (digest, spend).
  maya: { id: 'U0MAYA', key: 'demo-key-maya-team-admin', token: 'demo-token-maya-team-admin' },
  sam: { id: 'U0SAM', key: 'demo-key-sam-team-member', token: undefined },
} as const;
type Person = keyof typeof PEOPLE;

const failures: string[] = [];

async function step(name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
    process.stdout.write(`✓ ${name}\n`);
  } catch (error) {
    failures.push(`${name}: ${error instanceof Error ? error.message.split('\n')[0] : String(error)}`);
    process.stdout.write(`✗ ${name}\n`);
  }
}

/** One browser tab per person, each on the sandbox page as that person (`?as=`). */
class Walk {
  private readonly pages = new Map<Person, Page>();
  constructor(
    private readonly browser: Browser,
    private readonly sandbox: RunningSandbox,
    readonly dialect: Dialect,
  ) {}

  async as(person: Person): Promise<Page> {
    const open = this.pages.get(person);
    if (open) return open;
    const page = await this.browser.newPage({ viewport: VIEWPORT });
    await page.goto(`${this.sandbox.url}?as=${PEOPLE[person].id}`);
    await page.locator('.nav-item').first().waitFor({ timeout: STEP_MS });
    this.pages.set(person, page);
    return page;
  }

  async channel(person: Person, name: string): Promise<Page> {
    const page = await this.as(person);
    await page.locator('.nav-item', { hasText: new RegExp(`#\\s*${name}$`) }).click();
    return page;
  }

  async type(person: Person, text: string): Promise<Page> {
    const page = await this.channel(person, 'general');
    await page.locator('#composer-input').fill(text);
    await page.locator('#composer-input').press('Enter');
    return page;
  }

  async login(person: Person): Promise<void> {
    const page = await this.type(person, '/ps login');
    const modal = page.locator('#modal[open]');
    await modal.getByLabel(/API key/i).fill(PEOPLE[person].key, { timeout: STEP_MS });
    const { token } = PEOPLE[person];
    const tokenField = modal.getByLabel(/access token/i);
    if (token !== undefined && (await tokenField.count()) > 0) await tokenField.fill(token);
    await modal.locator('button.submit').click();
    // The bot closes the form or replaces it with its result; either way the key field goes away.
    await waitUntil(async () => (await modal.getByLabel(/API key/i).count()) === 0);
    if ((await modal.count()) > 0) await modal.locator('.close-x').click();
  }

  async shot(page: Page, name: string): Promise<void> {
    await page.waitForTimeout(400);
    await page.screenshot({ path: join(OUT_DIR, `${name}-${this.dialect}.png`) });
  }
}

async function waitUntil(probe: () => Promise<boolean>, timeoutMs = STEP_MS): Promise<void> {
  const end = Date.now() + timeoutMs;
  while (Date.now() < end) {
    if (await probe()) return;
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error(`timed out after ${timeoutMs} ms`);
}

/** The newest message in the timeline that contains `text`. */
function lastMessage(page: Page, text: RegExp): Locator {
  return page.locator('#timeline .message').filter({ hasText: text }).last();
}

async function clickAndConfirm(page: Page, button: Locator): Promise<void> {
  await button.click({ timeout: STEP_MS });
  const confirm = page.locator('#confirm[open] button.confirm');
  if (await confirm.count().then((count) => count > 0)) await confirm.click();
  else await confirm.click({ timeout: 2000 }).catch(() => undefined);
}

/** HH:MM in UTC a little over a minute from now: the digest's first post, reached with the clock. */
function soonUtc(): string {
  const at = new Date(Date.now() + 65_000);
  return `${String(at.getUTCHours()).padStart(2, '0')}:${String(at.getUTCMinutes()).padStart(2, '0')}`;
}

async function walk(browser: Browser, dialect: Dialect): Promise<void> {
  const dataDir = await mkdtemp(join(tmpdir(), `screenshots-${dialect}-`));
  const logger = createLogger({ level: 'warn' });
  const sandbox = await startSandbox({ logger, port: 0, dataDir, dialect });
  const w = new Walk(browser, sandbox, dialect);
  try {
    for (const person of ['ada', 'maya', 'sam'] as const)
      await step(`${dialect}: ${person} logs in`, () => w.login(person));

    await step(`${dialect}: help`, async () => {
      const page = await w.type('ada', '/ps help');
      await lastMessage(page, /\/ps/).waitFor({ timeout: STEP_MS });
      await w.shot(page, 'help');
    });

    await step(`${dialect}: a member's create request`, async () => {
      await w.type('maya', '/ps approvals #general');
      const page = await w.type('sam', '/ps create');
      const modal = page.locator('#modal[open]');
      await modal.waitFor({ timeout: STEP_MS });
      await waitUntil(async () => (await modal.locator('select').count()) > 0);
      // The first offered choice of every required select, and a name: a plausible first machine. The
      // optional ones stay empty, as a newcomer leaves them (the first network may be in another region).
      for (const select of await modal.locator('.bk-input:not(:has(.bk-optional)) select').all()) {
        const values = await select
          .locator('option')
          .evaluateAll((options) =>
            options.map((option) => option.getAttribute('value') ?? '').filter((value) => value !== ''),
          );
        const chosen = await select.inputValue();
        if (chosen === '' && values[0] !== undefined) await select.selectOption(values[0]);
      }
      await modal.getByLabel(/^Name/).fill('sam-gpu');
      await modal.locator('button.submit').click();
      // A member may not create: the form is sent to the administrators as a request and the modal
      // says where it went (or, where the answer is an offer, its Send request button is shown).
      const sent = modal.getByText(/request sent/i);
      const offer = page.getByRole('button', { name: /send request/i });
      await waitUntil(async () => (await sent.count()) > 0 || (await offer.count()) > 0);
      await page.waitForTimeout(1000);
      await w.shot(page, 'member-create-request');
      if ((await sent.count()) === 0) await offer.last().click({ timeout: STEP_MS });
      if ((await modal.count()) > 0) await modal.locator('.close-x').click();
      await page.waitForTimeout(1500);
    });

    await step(`${dialect}: the approval request`, async () => {
      const page = await w.channel('maya', 'general');
      const request = lastMessage(page, /request|asks/i);
      await request
        .getByRole('button', { name: /approve/i })
        .first()
        .waitFor({ timeout: STEP_MS });
      await request.scrollIntoViewIfNeeded();
      await w.shot(page, 'approval-request');
    });

    await step(`${dialect}: spend`, async () => {
      const page = await w.type('maya', '/ps spend');
      await lastMessage(page, /\$\d+\.\d\d/).waitFor({ timeout: STEP_MS });
      await w.shot(page, 'spend');
    });

    await step(`${dialect}: the Home after Stop`, async () => {
      const page = await w.as('ada');
      await page.locator('.nav-item', { hasText: /🤖/ }).click();
      const home = page.locator('#home');
      const stop = home.getByRole('button', { name: /^Stop\b/ }).first();
      await clickAndConfirm(page, stop);
      await waitUntil(async () => /Stopping|Off/i.test((await home.textContent()) ?? ''));
      await page.waitForTimeout(4000);
      await w.shot(page, 'home-after-stop');
    });

    await step(`${dialect}: the digest after Stop`, async () => {
      await w.type('maya', `/ps digest #general daily ${soonUtc()} UTC`);
      const page = await w.channel('maya', 'general');
      // Once the digest is set, the sandbox clock brings its time instead of waiting for it.
      await page
        .locator('#timeline .message.ephemeral')
        .filter({ hasText: /digest/i })
        .last()
        .waitFor({ timeout: STEP_MS });
      await page.getByRole('region', { name: 'Sandbox clock' }).getByRole('button', { name: '+1 h' }).click();
      const digest = page
        .locator('#timeline .message:not(.ephemeral)')
        .filter({ has: page.getByRole('button', { name: /^Stop\b/ }) })
        .last();
      await digest.waitFor({ timeout: STEP_MS });
      await clickAndConfirm(page, digest.getByRole('button', { name: /^Stop\b/ }).first());
      await page.waitForTimeout(6000);
      await digest.scrollIntoViewIfNeeded();
      await w.shot(page, 'digest-after-stop');
    });
  } finally {
    await sandbox.close();
    await rm(dataDir, { recursive: true, force: true });
  }
}

async function main(): Promise<void> {
  const browser = await chromium.launch({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_ARGS,
    headless: true,
  });
  try {
    const dialects = (process.argv[2]?.split(',') ?? ['contract', 'v1']) as Dialect[];
    for (const dialect of dialects) await walk(browser, dialect);
  } finally {
    await browser.close();
  }
  if (failures.length > 0) {
    process.stderr.write(`Some screens were not taken:\n${failures.map((line) => `  ${line}`).join('\n')}\n`);
    process.exit(1);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(
    `Cannot take the screenshots: ${error instanceof Error ? error.message : String(error)}\n`,
  );
  process.exit(1);
});
