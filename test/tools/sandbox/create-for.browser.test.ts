// An administrator's inline create for a teammate, in the sandbox in real headless Chromium, on both
// dialects: Maya (who administers the Orbital team) types `/ps create … for=@sam` with no Paperspace id,
// and the card of Sam's new machine arrives in the channel (issue 45). On the legacy API Paperspace
// itself names Sam as the owner; v1 has no owner, and the card says whom it was made for.
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
const MAYA = { slackId: 'U0MAYA', apiKey: 'demo-key-maya-team-admin' };
const SAM_PAPERSPACE_USER = 'u1sam';

for (const dialect of ['contract', 'v1'] as const satisfies readonly Dialect[]) {
  describeInChromium(`an administrator's create for a teammate in the sandbox (${dialect})`, () => {
    let directory: string;
    let sandbox: RunningSandbox;
    let browser: Browser;
    let page: Page;
    let type: PageDriver['type'];
    let waitForVisible: PageDriver['waitForVisible'];
    let logIn: PageDriver['logIn'];

    beforeAll(async () => {
      directory = await mkdtemp(join(tmpdir(), `sandbox-create-for-${dialect}-`));
      sandbox = await startSandbox({
        logger: captureLogs('warn').logger,
        port: 0,
        dataDir: join(directory, 'data'),
        dialect,
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

    it('types the create with for=@sam and sees the card of the machine made for Sam', {
      timeout: 90_000,
    }, async () => {
      await page.goto(sandbox.url);
      await page.locator('.nav-item.current').waitFor();
      await logIn(MAYA.slackId, MAYA.apiKey);

      const name = `sam-box-${dialect}`;
      await type(
        `/ps create machineName=${name} region=NY2 machineType=C4 templateId=t04azgph size=50 for=@sam`,
      );
      const card = await waitForVisible(
        page.locator('#timeline .message:not(.ephemeral)').filter({ hasText: name }).last(),
        `The card of ${name}`,
      );
      const text = (await card.textContent()) ?? '';
      expect(text).toContain('created by @Maya Chen for @Sam Rivera');
      expect(text).not.toMatch(/\(\d{3}\)|userId is required/);
      expect(await page.locator('#timeline .message.ephemeral').filter({ hasText: '⚠️' }).count()).toBe(0);

      if (dialect === 'contract') {
        // Paperspace itself has Sam as the machine's owner.
        const answer = await fetch(`${sandbox.emulatorUrl}/machines/getMachines?name=${name}`, {
          headers: { 'X-Api-Key': MAYA.apiKey },
        });
        const machines = (await answer.json()) as { name: string; userId?: string }[];
        expect(machines.find((machine) => machine.name === name)?.userId).toBe(SAM_PAPERSPACE_USER);
      }
      await page.screenshot({ path: await screenshotPath(`sandbox-create-for-${dialect}`), fullPage: true });
    });
  });
}
