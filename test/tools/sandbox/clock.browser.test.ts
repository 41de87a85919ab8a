// The sandbox clock in a browser: a person tries a time-based flow without waiting. Ada's demo
// workstation is running; moving the clock eight hours with the page's button makes it a forgotten
// machine, and the cost guard's message arrives in her Messages tab, as it would eight hours later.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { describeInChromium, launchChromium, screenshotPath } from './support/chromium.js';

const STEP_TIMEOUT_MS = 15_000;
/** Ada's demo machine that is running from the start (tools/emulator/demo-seed.ts). */
const RUNNING_MACHINE = 'ada-workstation';

let directory: string;
let sandbox: RunningSandbox;
let browser: Browser;
let page: Page;

async function type(text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.locator('#composer-input').press('Enter');
}

async function logInAsAda(): Promise<void> {
  await type('/ps login');
  const modal = page.locator('#modal[open]');
  await modal.getByLabel('API key').fill('demo-key-ada-individual', { timeout: STEP_TIMEOUT_MS });
  await modal.locator('button.submit').click();
  await expect
    .poll(async () => (await modal.count()) === 0 || (await modal.getByLabel('API key').count()) === 0, {
      timeout: STEP_TIMEOUT_MS,
    })
    .toBe(true);
  if ((await modal.count()) > 0) await modal.locator('.close-x').click();
}

async function openMessagesTab(): Promise<void> {
  await page.locator('.nav-item', { hasText: '🤖' }).click();
  await page.getByRole('tab', { name: 'Messages' }).click();
}

describeInChromium('the sandbox clock in a browser', () => {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sandbox-clock-'));
    sandbox = await startSandbox({
      logger: captureLogs('warn').logger,
      port: 0,
      dataDir: join(directory, 'data'),
    });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('moves the clock eight hours with the page button, and the forgotten machine alert arrives', {
    timeout: 90_000,
  }, async () => {
    await page.goto(sandbox.url);
    await page.locator('.nav-item.current').waitFor();
    const clock = page.getByRole('region', { name: 'Sandbox clock' });
    await expect.poll(() => clock.textContent(), { timeout: STEP_TIMEOUT_MS }).toContain('real time');
    await logInAsAda();

    await openMessagesTab();
    const alert = page.locator('#timeline .message').filter({ hasText: RUNNING_MACHINE });
    // Nothing is forgotten yet: the workstation has run only as long as the sandbox.
    await page.waitForTimeout(2000);
    expect(await alert.count()).toBe(0);

    const before = sandbox.clock.reading().now;
    await clock.getByRole('button', { name: '+8 h' }).click();
    // The region's text holds the button's label too, so the move itself is what is waited for.
    await expect
      .poll(() => sandbox.clock.reading().now - before, { timeout: STEP_TIMEOUT_MS })
      .toBeGreaterThanOrEqual(8 * 3_600_000);
    await expect.poll(() => clock.textContent(), { timeout: STEP_TIMEOUT_MS }).toContain('+8 h');

    await alert.last().waitFor({ timeout: STEP_TIMEOUT_MS });
    const text = (await alert.last().textContent()) ?? '';
    expect(text).toMatch(/8 h|8h|8 hours/);
    expect(
      await alert
        .last()
        .getByRole('button', { name: /^Stop\b/ })
        .count(),
    ).toBe(1);
    await page.screenshot({ path: await screenshotPath('sandbox-clock-cost-alert'), fullPage: true });
  });

  it('moves the clock by a typed /clock step and refuses one it cannot read, saying how', {
    timeout: 30_000,
  }, async () => {
    await page.locator('.nav-item', { hasText: /#\s*general$/ }).click();
    const clock = page.getByRole('region', { name: 'Sandbox clock' });
    const before = sandbox.clock.reading().offsetMs;
    await type('/clock +1d');
    await expect
      .poll(() => sandbox.clock.reading().offsetMs, { timeout: STEP_TIMEOUT_MS })
      .toBe(before + 86_400_000);
    await expect.poll(() => clock.textContent(), { timeout: STEP_TIMEOUT_MS }).toContain('+32 h');

    await type('/clock tomorrow');
    await page.locator('.toast', { hasText: '/clock +8h' }).waitFor({ timeout: STEP_TIMEOUT_MS });
    expect(sandbox.clock.reading().offsetMs).toBe(before + 86_400_000);
  });
});
