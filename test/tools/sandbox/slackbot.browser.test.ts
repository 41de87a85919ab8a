// The page's Slackbot panel in real headless Chromium, with the real bot behind the sandbox: Ada picks
// a read tool and sees its blocks, Sam's call (he linked no key) is shown as an error, and a change's Confirm arrives in
// Ada's messages with the app, where her click starts the machine and the completion follows.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { describeInChromium, launchChromium, screenshotPath } from './support/chromium.js';
import { sandboxPage } from './support/sandbox-page.js';

/** Ada's other machine that is off in the demo seed; a desktop, so a start ends in "ready". */
const MACHINE = 'ada-render';
const STEP_TIMEOUT_MS = 15_000;

let directory: string;
let sandbox: RunningSandbox;
let browser: Browser;
let page: Page;

const panel = () => page.locator('#slackbot-pane');
const lastAnswer = () => panel().locator('.slackbot-answer').last();

async function callTool(tool: string, fill: (form: Locator) => Promise<void>): Promise<Locator> {
  const before = await panel().locator('.slackbot-answer').count();
  await panel().getByLabel('Tool').selectOption(tool);
  await fill(panel().locator('#slackbot-fields'));
  await panel().getByRole('button', { name: 'Call' }).click();
  await expect
    .poll(() => panel().locator('.slackbot-answer').count(), { timeout: STEP_TIMEOUT_MS })
    .toBe(before + 1);
  return lastAnswer();
}

describeInChromium("Slackbot's side in the sandbox page", () => {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sandbox-slackbot-browser-'));
    sandbox = await startSandbox({
      logger: captureLogs().logger,
      port: 0,
      dataDir: join(directory, 'data'),
      transitionMs: 300,
    });
    // The login is the sandbox's own flow (sandbox.browser.test.ts clicks it through); here it is a means.
    await sandboxPage(sandbox.url.replace(/\/$/, '')).login('U0ADA', 'demo-key-ada-individual');
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  }, 40_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('lists the tools, calls a read for Ada and draws its blocks, with the text beside them', {
    timeout: 60_000,
  }, async () => {
    await page.goto(`${sandbox.url}?as=U0ADA`);
    await page.locator('.nav-item.current').waitFor();
    await page.getByRole('button', { name: /Slackbot/ }).click();
    await expect
      .poll(() => panel().getByLabel('Tool').locator('option').allTextContents(), {
        timeout: STEP_TIMEOUT_MS,
      })
      .toEqual(
        expect.arrayContaining([
          'Show a machine (show_machine)',
          expect.stringMatching(/^Stop a machine .*confirm/),
        ]),
      );

    const answer = await callTool('show_machine', (form) => form.getByLabel('machine').fill(MACHINE));
    await expect.poll(() => answer.locator('.blocks').textContent()).toContain('⚫ Off');
    expect(await answer.locator('.blocks').textContent()).toContain('Quadro P5000');
    expect(await answer.locator('.slackbot-asked').textContent()).toBe(
      `show_machine {"machine":"${MACHINE}"}`,
    );
    expect(await answer.locator('details pre').textContent()).toContain(`${MACHINE}: ⚫ Off`);
    expect(await answer.getAttribute('class')).not.toContain('error');
    await page.screenshot({ path: await screenshotPath('sandbox-slackbot-read'), fullPage: true });
  });

  it('shows a form problem before calling, and an error result as an error', {
    timeout: 60_000,
  }, async () => {
    await panel().getByLabel('Tool').selectOption('wait_for_machine');
    await panel().locator('#slackbot-fields').getByLabel('timeoutMs').fill('1.5');
    await panel().getByRole('button', { name: 'Call' }).click();
    expect(await panel().locator('#slackbot-problems').textContent()).toBe(
      'timeoutMs must be a whole number.',
    );

    // Sam linked no key: the bot's refusal comes back as an error result.
    await page.locator('#user-switcher').selectOption('U0SAM');
    await expect.poll(() => panel().locator('.slackbot-answer').count()).toBe(0);
    const answer = await callTool('show_machine', (form) => form.getByLabel('machine').fill(MACHINE));
    expect(await answer.getAttribute('class')).toContain('error');
    expect(await answer.locator('.badge-error').textContent()).toBe('ERROR');
    expect(await answer.textContent()).toContain('You have not linked a Paperspace API key yet');
    await page.locator('#user-switcher').selectOption('U0ADA');
  });

  it('proposes a start, whose Confirm in Ada’s messages with the app starts the machine', {
    timeout: 60_000,
  }, async () => {
    const answer = await callTool('start_machine', (form) => form.getByLabel('machine').fill(MACHINE));
    expect(await answer.textContent()).toContain('nothing happens until you click Confirm');
    await answer.getByRole('button', { name: /Open your messages/ }).click();

    const proposal = page
      .locator('#timeline .message')
      .filter({ hasText: 'Slackbot asked me to do this for you' })
      .last();
    await proposal.waitFor({ timeout: STEP_TIMEOUT_MS });
    await proposal.getByRole('button', { name: 'Confirm: Start a machine' }).click();
    await expect
      .poll(() => proposal.textContent(), { timeout: STEP_TIMEOUT_MS })
      .toContain('Confirmed by you');

    const card = page.locator('#timeline .message').filter({ hasText: MACHINE }).last();
    await expect.poll(() => card.textContent(), { timeout: 30_000 }).toContain('🟢 Ready');
    await card.locator('button.replies').click();
    await expect
      .poll(() => page.locator('#thread-pane .message').allTextContents(), { timeout: STEP_TIMEOUT_MS })
      .toEqual(expect.arrayContaining([expect.stringMatching(new RegExp(`${MACHINE}.*is 🟢 Ready`))]));
    await page.screenshot({ path: await screenshotPath('sandbox-slackbot-confirm'), fullPage: true });
  });
});
