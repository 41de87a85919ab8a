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

  it('reads "Today" by the sandbox clock: a report made now, a day and more ahead of real time, is as of today', {
    timeout: 30_000,
  }, async () => {
    expect(sandbox.clock.reading().offsetMs).toBeGreaterThan(86_400_000);
    await type('/ps spend');
    const report = page.locator('#timeline .message', { hasText: 'as of' }).last();
    await report.waitFor({ timeout: STEP_TIMEOUT_MS });
    expect(await report.textContent()).toMatch(/as of Today at/);
  });

  it('redraws the dates already shown when the clock moves: the report of today is as of yesterday a day on', {
    timeout: 30_000,
  }, async () => {
    const report = page.locator('#timeline .message', { hasText: 'as of' }).last();
    const reportTs = await report.getAttribute('data-ts');
    const before = sandbox.clock.reading().now;
    await page.getByRole('region', { name: 'Sandbox clock' }).getByRole('button', { name: '+1 day' }).click();
    await expect
      .poll(() => sandbox.clock.reading().now - before, { timeout: STEP_TIMEOUT_MS })
      .toBeGreaterThanOrEqual(86_400_000);
    const same = page.locator(`#timeline .message[data-ts="${reportTs}"]`);
    await expect.poll(() => same.textContent(), { timeout: STEP_TIMEOUT_MS }).toMatch(/as of Yesterday at/);
  });

  it('greys the read-only Messages tab’s Send, and keeps the clock’s heading readable on the sidebar', {
    timeout: 30_000,
  }, async () => {
    await openMessagesTab();
    const send = page.locator('#composer .send');
    expect(await send.isDisabled()).toBe(true);
    const look = () =>
      send.evaluate((node) => {
        const style = (globalThis as unknown as InPage).getComputedStyle(node);
        return { background: style.backgroundColor, cursor: style.cursor };
      });
    const readOnly = await look();
    expect(readOnly.cursor).toBe('not-allowed');
    await page.locator('.nav-item', { hasText: /#\s*general$/ }).click();
    expect(await send.isDisabled()).toBe(false);
    expect((await look()).background).not.toBe(readOnly.background);

    const heading = page.getByRole('heading', { name: 'Sandbox clock' });
    // The text's color as painted: its alpha and every ancestor's opacity blend it into the sidebar.
    const colors = await heading.evaluate((node) => {
      const { getComputedStyle } = globalThis as unknown as InPage;
      let opacity = 1;
      let background = '';
      for (let at: InPageNode | null = node as unknown as InPageNode; at !== null; at = at.parentElement) {
        const style = getComputedStyle(at);
        opacity *= Number(style.opacity);
        if (background === '' && style.backgroundColor !== 'rgba(0, 0, 0, 0)')
          background = style.backgroundColor;
      }
      return { text: getComputedStyle(node).color, opacity, background };
    });
    expect(contrastRatio(colors.text, colors.opacity, colors.background)).toBeGreaterThanOrEqual(4.5);
  });
});

/** What the page's functions use of the browser (the tests compile without the DOM's types). */
interface InPageNode {
  parentElement: InPageNode | null;
}
interface InPage {
  getComputedStyle(node: unknown): {
    backgroundColor: string;
    cursor: string;
    color: string;
    opacity: string;
  };
}

/** WCAG 2's contrast ratio of `text` (with its alpha times `opacity`) painted on the opaque `background`. */
function contrastRatio(text: string, opacity: number, background: string): number {
  const channels = (color: string) => (color.match(/[\d.]+/g) ?? []).map(Number);
  const [r = 0, g = 0, b = 0, alpha = 1] = channels(text);
  const [br = 0, bg = 0, bb = 0] = channels(background);
  const a = alpha * opacity;
  const painted = [r * a + br * (1 - a), g * a + bg * (1 - a), b * a + bb * (1 - a)];
  const luminance = ([red = 0, green = 0, blue = 0]: number[]) => {
    const linear = (value: number) => {
      const c = value / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * linear(red) + 0.7152 * linear(green) + 0.0722 * linear(blue);
  };
  const [light, dark] = [luminance(painted), luminance([br, bg, bb])].sort((x, y) => y - x);
  return ((light ?? 0) + 0.05) / ((dark ?? 0) + 0.05);
}
