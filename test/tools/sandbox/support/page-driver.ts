// Driving the sandbox page in Chromium as a person does: typing in the composer, waiting for what the
// page should show (saying what it showed instead), and logging in through the real /ps login modal.
import type { Locator, Page } from 'playwright-core';
import { expect } from 'vitest';

export interface PageDriver {
  /** Types `text` in the composer and sends it. */
  type(text: string): Promise<void>;
  /** Waits for `locator`; failing, names `what` and quotes the page's last messages. */
  waitForVisible(locator: Locator, what: string): Promise<Locator>;
  /** Switches the page to the person and links their demo key through the /ps login modal. */
  logIn(slackId: string, apiKey: string): Promise<void>;
}

export function pageDriver(page: Page, stepTimeoutMs: number): PageDriver {
  const type = async (text: string) => {
    await page.locator('#composer-input').fill(text);
    await page.locator('#composer-input').press('Enter');
  };

  const waitForVisible = async (locator: Locator, what: string) => {
    try {
      await locator.waitFor({ timeout: stepTimeoutMs });
      return locator;
    } catch {
      const texts = await page.locator('#timeline .message').allTextContents();
      throw new Error(`${what} did not appear. The last messages were:\n${texts.slice(-3).join('\n---\n')}`);
    }
  };

  return {
    type,
    waitForVisible,
    async logIn(slackId, apiKey) {
      await page.locator('#user-switcher').selectOption(slackId);
      await type('/ps login');
      const modal = await waitForVisible(page.locator('#modal[open]'), 'The login modal');
      await modal.getByLabel('API key').fill(apiKey, { timeout: stepTimeoutMs });
      await modal.locator('button.submit').click();
      await expect
        .poll(async () => (await modal.count()) === 0 || (await modal.getByLabel('API key').count()) === 0, {
          timeout: stepTimeoutMs,
        })
        .toBe(true);
      expect(await page.locator('#modal .bk-error').allTextContents()).toEqual([]);
      if ((await modal.count()) > 0) await modal.locator('.close-x').click();
    },
  };
}
