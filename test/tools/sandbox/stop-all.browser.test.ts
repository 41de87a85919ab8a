// Stop all on a reminder of 25 machines, in the sandbox in real headless Chromium, on both dialects
// (issue 45): Ada has 25 machines running, sets a daily reminder, moves the sandbox clock a day on with
// the page's button so that it fires, clicks Stop all and confirms. What she then sees must end as a
// single Stop does: every listed row "stopped ✓", the footer counting all 25 stopped and none failed,
// and the header agreeing that nothing of the reminder still runs.
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { Dialect } from '../../../src/paperspace/dialect.js';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { describeInChromium, launchChromium, screenshotPath } from './support/chromium.js';
import { type PageDriver, pageDriver } from './support/page-driver.js';

const STEP_TIMEOUT_MS = 15_000;
const ADA = { slackId: 'U0ADA', paperspaceUser: 'u1ada', apiKey: 'demo-key-ada-individual' };
const MACHINES = 25;

for (const dialect of ['contract', 'v1'] as const satisfies readonly Dialect[]) {
  describeInChromium(`Stop all on a reminder of ${MACHINES} machines in the sandbox (${dialect})`, () => {
    let directory: string;
    let sandbox: RunningSandbox;
    let browser: Browser;
    let page: Page;
    let type: PageDriver['type'];
    let waitForVisible: PageDriver['waitForVisible'];
    let logIn: PageDriver['logIn'];

    const adaRunning = () =>
      sandbox.world
        .machines()
        .filter((machine) => machine.userId === ADA.paperspaceUser && machine.state !== 'off');

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), `sandbox-stop-all-${dialect}-`));
      sandbox = await startSandbox({
        logger: captureLogs('warn').logger,
        port: 0,
        dataDir: join(directory, 'data'),
        dialect,
      });
      // Ada's demo account has one machine running; the rest of her 25 join it, running since the start.
      sandbox.world.addMachines(MACHINES - adaRunning().length, {
        owner: ADA.paperspaceUser,
        state: 'ready',
        namePrefix: 'ada-many',
      });
      browser = await launchChromium();
      page = await browser.newPage({ viewport: { width: 1360, height: 900 } });
      ({ type, waitForVisible, logIn } = pageDriver(page, STEP_TIMEOUT_MS));
    });
    afterAll(async () => {
      await browser?.close();
      await sandbox?.close();
      await rm(directory, { recursive: true, force: true });
    });

    it('fires the reminder with the clock, and after Stop all every row, the footer and the header say stopped', {
      timeout: 120_000,
    }, async () => {
      expect(adaRunning()).toHaveLength(MACHINES);
      await page.goto(sandbox.url);
      await page.locator('.nav-item.current').waitFor();
      await logIn(ADA.slackId, ADA.apiKey);
      // A day of running brings forgotten-machine alerts with Stop all buttons of their own: not this test's.
      await type('/ps alerts off');
      await waitForVisible(
        page.locator('#timeline .message.ephemeral').filter({ hasText: 'alerts are off' }),
        'The alerts-off answer',
      );
      await type('/ps remind 19:00 daily');
      await waitForVisible(
        page.locator('#timeline .message.ephemeral').filter({ hasText: '19:00' }),
        'The reminder’s confirmation',
      );

      // A day on, 19:00 has passed once whatever the time is now.
      const clock = page.getByRole('region', { name: 'Sandbox clock' });
      const before = sandbox.clock.reading().now;
      await clock.getByRole('button', { name: '+1 day' }).click();
      await expect
        .poll(() => sandbox.clock.reading().now - before, { timeout: STEP_TIMEOUT_MS })
        .toBeGreaterThanOrEqual(86_400_000);
      await page.locator('.nav-item', { hasText: '🤖' }).click();
      await page.getByRole('tab', { name: 'Messages' }).click();
      const fired = await waitForVisible(
        page.locator('#timeline .message').filter({ has: page.getByRole('button', { name: /^Stop all/ }) }),
        'The reminder with its Stop all',
      );
      // The message itself, by its timestamp: its buttons go once Stop all has run.
      const reminder = page.locator(`#timeline .message[data-ts="${await fired.getAttribute('data-ts')}"]`);
      const stopAll = reminder.getByRole('button', { name: `Stop all ${MACHINES}` });
      expect(await stopAll.count()).toBe(1);
      // Each row begins with its machine's name: `ada-many-3 · 🟢 Ready · C4 · East Coast (NY2)`.
      const listed = [...((await reminder.textContent()) ?? '').matchAll(/(ada-[a-z0-9-]+) · /g)].map(
        (match) => match[1] ?? '',
      );
      // One message holds fewer rows than 25 beside its header and footer; Stop all covers the rest.
      expect(listed.length).toBeGreaterThan(20);
      expect(listed.length).toBeLessThan(MACHINES);
      expect(listed.every((name) => /^ada-/.test(name))).toBe(true);

      await stopAll.click();
      const confirm = await waitForVisible(page.locator('dialog[open]'), 'The Stop all confirmation');
      expect(await confirm.textContent()).toContain(`Stop all ${MACHINES} machines?`);
      await confirm.getByRole('button', { name: `Stop ${MACHINES}` }).click();

      // The emulator takes each machine to off in moments, and the watches poll every second.
      await expect.poll(() => adaRunning().length, { timeout: STEP_TIMEOUT_MS }).toBe(0);
      const ended = async () => {
        const text = (await reminder.textContent()) ?? '';
        return { stopping: text.includes('stopping'), stopped: /25 machines stopped ✓/.test(text) };
      };
      await expect.poll(ended, { timeout: STEP_TIMEOUT_MS }).toEqual({ stopping: false, stopped: true });

      const text = (await reminder.textContent()) ?? '';
      for (const name of listed) expect(text).toContain(`${name}: stopped ✓`);
      expect(await reminder.getByRole('button', { name: /Stop|Snooze|Keep running/ }).count()).toBe(0);
      const footer = reminder.locator('[data-block-id^="stop_all_done:"]');
      const footerText = (await footer.textContent()) ?? '';
      expect(footerText).toContain(`${MACHINES} machines stopped ✓`);
      expect(footerText).not.toMatch(/could not be stopped|stopping|❌/);
      const header = (await reminder.locator('[data-block-id^="reminder_header:"]').textContent()) ?? '';
      expect(header).not.toMatch(/\d+ machines? still running/);
      expect(header).toContain('Nothing from this reminder is still running');
      await page.screenshot({ path: await screenshotPath(`sandbox-stop-all-${dialect}`), fullPage: true });
    });
  });
}
