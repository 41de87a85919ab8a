// /ps spend's chart in real headless Chromium, with the real bot behind the sandbox: Maya, who
// administers the demo team, asks for the team's spend and sees the month drawn as bars, a bar per
// person with its amount, the same amounts the message's text gives a screen reader.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { describeInChromium, launchChromium, screenshotPath } from './support/chromium.js';
import { sandboxPage } from './support/sandbox-page.js';

const STEP_TIMEOUT_MS = 30_000;

let directory: string;
let sandbox: RunningSandbox;
let browser: Browser;
let page: Page;
let pageErrors: string[];

describeInChromium("/ps spend's chart in the sandbox page", () => {
  beforeAll(async () => {
    directory = await mkdtemp(join(tmpdir(), 'sandbox-spend-chart-'));
    sandbox = await startSandbox({ logger: captureLogs().logger, port: 0, dataDir: join(directory, 'data') });
    // The login is the sandbox's own flow (sandbox.browser.test.ts clicks it through); here it is a means.
    // Her GraphQL access token is how the legacy API tells the bot she administers the team.
    await sandboxPage(sandbox.url.replace(/\/$/, '')).login(
      'U0MAYA',
      'demo-key-maya-team-admin',
      'demo-token-maya-team-admin',
    );
    browser = await launchChromium();
    page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
    pageErrors = [];
    page.on('pageerror', (error) => pageErrors.push(error.message));
  }, 40_000);
  afterAll(async () => {
    await browser?.close();
    await sandbox?.close();
    await rm(directory, { recursive: true, force: true });
  });

  it("draws the team's month per person as bars, each with its amount", { timeout: 60_000 }, async () => {
    // The demo's machines start when the sandbox does: a working day on the sandbox clock gives the
    // month something to draw, whatever the time of day the test runs at.
    await sandbox.clock.advance(8 * 3_600_000);
    await page.goto(`${sandbox.url}?as=U0MAYA`);
    await page.locator('.nav-item.current').waitFor();
    await page.locator('#composer-input').fill('/ps spend');
    await page.locator('#composer-input').press('Enter');
    const chart = page.locator('.message .bk-chart').last();
    await chart.waitFor({ timeout: STEP_TIMEOUT_MS });

    expect(await chart.getAttribute('role')).toBe('img');
    expect(await chart.locator('figcaption').textContent()).toMatch(/^Spend by person · \w+ \d{4} so far$/);
    const rows = chart.locator('.bk-chart-row');
    const categories = await rows.evaluateAll((nodes) =>
      nodes.map((node) => node.getAttribute('data-category')),
    );
    expect(categories).toEqual(expect.arrayContaining(['Maya Chen', 'Sam Rivera']));
    const widths = await chart
      .locator('.bk-chart-bar')
      .evaluateAll((nodes) => nodes.map((node) => Number(node.getAttribute('width'))));
    expect(widths).toHaveLength(categories.length);
    // The biggest spender's bar is drawn full length; every bar is drawn.
    expect(Math.max(...widths)).toBeGreaterThan(0);
    expect(widths[0]).toBe(Math.max(...widths));

    // Each bar's amount is the one the report's text gives that person.
    const message = page
      .locator('.message')
      .filter({ has: page.locator('.bk-chart') })
      .last();
    const text = (await message.textContent()) ?? '';
    const mayaBar =
      (await rows
        .filter({ has: page.locator('title') })
        .first()
        .locator('title')
        .textContent()) ?? '';
    const amount = /: ([\d.]+)$/.exec(mayaBar)?.[1];
    expect(amount).toBeDefined();
    expect(text).toContain(`$${amount}`);
    expect(pageErrors).toEqual([]);
    await page.screenshot({ path: await screenshotPath('sandbox-spend-chart') });
  });

  it('draws a label as text, never as markup, and every series of a grouped chart', async () => {
    const hostile = '<img src=x onerror="window.__xss=1">';
    // Runs in the page, with the page's own renderer module (a string: this is browser code).
    const drawn = (await page.evaluate(`(async (label) => {
      const { renderBlocks } = await import('/blockkit.js');
      const host = document.createElement('div');
      host.append(renderBlocks([{
        type: 'data_visualization',
        title: label,
        chart: {
          type: 'bar',
          series: [
            { name: 'Compute', data: [{ label, value: 3 }, { label: 'Sam', value: 1 }] },
            { name: 'Storage', data: [{ label, value: 1 }, { label: 'Sam', value: 2 }] },
          ],
          axis_config: { categories: [label, 'Sam'] },
        },
      }], { people: new Map(), channels: new Map(), now: () => Date.now() }));
      document.body.append(host);
      return {
        images: host.querySelectorAll('img').length,
        bars: host.querySelectorAll('.bk-chart-bar').length,
        legend: [...host.querySelectorAll('.bk-chart-legend li')].map((item) => item.textContent.trim()),
        caption: host.querySelector('figcaption').textContent,
      };
    })(${JSON.stringify(hostile)})`)) as { images: number; bars: number; legend: string[]; caption: string };
    expect(drawn).toEqual({ images: 0, bars: 4, legend: ['Compute', 'Storage'], caption: hostile });
    expect(await page.evaluate('window.__xss')).toBeUndefined();
  });
});
