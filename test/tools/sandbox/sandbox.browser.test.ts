// The sandbox as `npm start` runs it without Slack credentials — the real bot, the emulator and the
// Slack stand-in — used the way a person would in real headless Chromium: log in with a demo key
// through the modal, list machines, start one from its card, watch the card change and the
// completion arrive in its thread.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs, type LogCapture } from '../../support/log-capture.js';
import { describeInChromium, launchChromium, screenshotPath } from './support/chromium.js';

const ADA_KEY = 'demo-key-ada-individual';
/** Ada's machine that is off in the demo seed; a desktop, so a start ends in "ready". */
const MACHINE = 'ada-render';
const STEP_TIMEOUT_MS = 15_000;

let directory: string;
let logs: LogCapture;
let sandbox: RunningSandbox;
let browser: Browser;
let page: Page;

/** What the page shows, for failure messages that say where the flow stopped. */
async function visibleMessages(): Promise<string> {
  const texts = await page.locator('#timeline .message').allTextContents();
  return texts.slice(-4).join('\n---\n') || '(no messages)';
}

async function waitForVisible(locator: Locator, what: string): Promise<Locator> {
  try {
    await locator.waitFor({ timeout: STEP_TIMEOUT_MS });
    return locator;
  } catch {
    throw new Error(`${what} did not appear. The last messages were:\n${await visibleMessages()}`);
  }
}

async function type(text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.locator('#composer-input').press('Enter');
}

describeInChromium('the sandbox in a browser', () => {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sandbox-browser-'));
    logs = captureLogs('info');
    sandbox = await startSandbox({ logger: logs.logger, port: 0, dataDir: join(directory, 'data') });
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
  });
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it('logs in with a demo key, lists machines, starts one and sees it through to ready', {
    timeout: 90_000,
  }, async () => {
    await page.goto(sandbox.url);
    await page.locator('.nav-item.current').waitFor();

    await type('/ps login');
    const modal = await waitForVisible(page.locator('#modal[open]'), 'The login modal');
    await modal.getByLabel('API key').fill(ADA_KEY);
    await modal.locator('button.submit').click();
    // The bot may close the modal or replace it with its result; either way the key form goes away.
    await expect
      .poll(async () => (await modal.count()) === 0 || (await modal.getByLabel('API key').count()) === 0, {
        timeout: STEP_TIMEOUT_MS,
      })
      .toBe(true);
    expect(await page.locator('#modal .bk-error').allTextContents()).toEqual([]);
    if ((await modal.count()) > 0) {
      await expect
        .poll(async () => (await modal.textContent()) ?? '', { timeout: STEP_TIMEOUT_MS })
        .not.toMatch(/Checking/);
      await modal.locator('.close-x').click();
      await modal.waitFor({ state: 'detached' });
    }

    await type('/ps list');
    const list = page.locator('.message.ephemeral').filter({ hasText: MACHINE }).last();
    const start = await waitForVisible(
      list.getByRole('button', { name: `Start ${MACHINE}` }),
      `The Start button of ${MACHINE}`,
    );
    await start.click();

    const card = await waitForVisible(
      page.locator('#timeline .message:not(.ephemeral)').filter({ hasText: MACHINE }).last(),
      `A public card for ${MACHINE}`,
    );
    const ts = await card.getAttribute('data-ts');
    const cardByTs = page.locator(`#timeline .message[data-ts="${ts}"]`);
    const before = (await cardByTs.textContent()) ?? '';
    expect(before).not.toContain('🟢 Ready');

    await expect
      .poll(async () => (await cardByTs.textContent()) ?? '', { timeout: 30_000 })
      .toContain('🟢 Ready');
    expect(await cardByTs.locator('.edited').count()).toBe(1);

    await (await waitForVisible(cardByTs.locator('button.replies'), 'The thread under the card')).click();
    const completion = page.locator('#thread-pane .message').nth(1);
    await waitForVisible(completion, 'The completion reply in the thread');
    expect(await completion.textContent()).toContain(MACHINE);

    await page.screenshot({ path: await screenshotPath('sandbox-start-machine'), fullPage: true });
  });

  it('keeps the timeline where it was when a button on an earlier message gets its reply', {
    timeout: 90_000,
  }, async () => {
    const timeline = page.locator('#timeline');
    await type('/ps list');
    const list = page.locator('.message.ephemeral').filter({ hasText: MACHINE }).last();
    await waitForVisible(list, 'The machine list');
    // Push the list up, out of the last screen, with long messages after it.
    for (let count = 0; count < 4; count++) await type('/ps help');
    await expect
      .poll(() => page.locator('#timeline .message').count(), { timeout: STEP_TIMEOUT_MS })
      .toBeGreaterThan(5);
    await list.scrollIntoViewIfNeeded();
    const before = await timeline.evaluate((node) => ({
      top: node.scrollTop,
      bottomGap: node.scrollHeight - node.scrollTop - node.clientHeight,
    }));
    expect(before.top).toBeGreaterThan(0);
    expect(before.bottomGap).toBeGreaterThan(60);

    const shown = await timeline.innerHTML();
    await list.getByRole('button', { name: `Stop ${MACHINE}` }).click();
    // Stop asks first.
    await (await waitForVisible(page.locator('#confirm button.confirm'), 'The confirm dialog')).click();
    // The reply redraws the timeline (a new card, a changed list); then the scroll is checked.
    await expect.poll(() => timeline.innerHTML(), { timeout: STEP_TIMEOUT_MS }).not.toBe(shown);
    const after = await timeline.evaluate((node) => node.scrollTop);
    expect(Math.abs(after - before.top)).toBeLessThan(5);
    expect(await list.isVisible()).toBe(true);
  });

  it('runs a Workflow Builder step with /workflow: refused until Ada turns steps on, then it completes', {
    timeout: 90_000,
  }, async () => {
    const slackbot = (text: string) =>
      page.locator('#timeline .message.ephemeral').filter({ hasText: text }).last();
    await type(`/workflow stop_machine machine=${MACHINE}`);
    const refused = await waitForVisible(slackbot('failed:'), 'The failed step');
    expect(await refused.textContent()).toContain('/ps steps on');

    await type('/ps steps on');
    await waitForVisible(slackbot('act with your Paperspace key'), 'The answer to /ps steps on');
    await type(`/workflow stop_machine machine=${MACHINE}`);
    const done = await waitForVisible(slackbot('completed.'), 'The completed step');
    expect(await done.textContent()).toContain(`machine_name: ${MACHINE}`);
    await page.screenshot({ path: await screenshotPath('sandbox-workflow-step'), fullPage: true });
  });

  it('unfurls a pasted console link into the machine card under the message, whose Start works as on a card', {
    timeout: 90_000,
  }, async () => {
    // Ada's other machine, still off: nothing earlier in this file touched it.
    const link = 'https://console.paperspace.com/machines/psada002';
    await type(`the CPU box: ${link}`);
    const unfurl = await waitForVisible(
      page.locator('#timeline .message:not(.ephemeral) .unfurl').filter({ hasText: 'ada-cpu-box' }).last(),
      'The unfurled card under the message',
    );
    expect(await unfurl.getAttribute('data-url')).toBe(link);
    await unfurl.getByRole('button', { name: 'Start ada-cpu-box' }).click();
    const card = await waitForVisible(
      page.locator('#timeline .message:has(.avatar-bot)').filter({ hasText: 'ada-cpu-box' }).last(),
      'The live card the app posts for ada-cpu-box',
    );
    expect(await card.textContent()).not.toContain('⚫ Off');
    // Ada's own message keeps her text and the card under it.
    expect(await unfurl.isVisible()).toBe(true);
    await page.screenshot({ path: await screenshotPath('sandbox-unfurl'), fullPage: true });
  });
});
