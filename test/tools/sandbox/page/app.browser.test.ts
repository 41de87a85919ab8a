// The sandbox page in real headless Chromium, against a scripted Bolt app: what a person sees
// (Block Kit, mrkdwn, ephemeral messages, threads, in-place updates, modals with their errors,
// confirm dialogs, overflow menus, the Home tab, the user switcher) and that no text from the app
// can become markup.
import type { Browser, Page } from 'playwright-core';
import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest';
import { describeInChromium, launchChromium, screenshotPath } from '../support/chromium.js';
import { HOSTILE_NAME, type ScriptedSandbox, startScriptedSandbox } from '../support/scripted-app.js';

let scripted: ScriptedSandbox;
let browser: Browser;
let page: Page;
let pageErrors: string[];

async function type(text: string): Promise<void> {
  await page.locator('#composer-input').fill(text);
  await page.locator('#composer-input').press('Enter');
}

const received = (kind: string) => scripted.received.filter((entry) => entry.kind === kind);

describeInChromium('the sandbox page', () => {
  beforeAll(async () => {
    scripted = await startScriptedSandbox();
    browser = await launchChromium();
  });
  afterAll(async () => {
    await browser?.close();
    await scripted?.close();
  });
  beforeEach(async () => {
    scripted.received.length = 0;
    pageErrors = [];
    page = await browser.newPage({ viewport: { width: 1280, height: 860 } });
    page.on('pageerror', (error) => pageErrors.push(error.message));
    await page.goto(`${scripted.sandbox.url}/`);
    await page.locator('.nav-item.current').waitFor();
  });
  afterEach(async () => {
    expect(pageErrors).toEqual([]);
    await page.close();
  });

  it('renders a card’s blocks and mrkdwn, showing a hostile machine name as text', async () => {
    await type('/ps card');
    const card = page.locator('.message.ephemeral').filter({ hasText: 'Only visible to you' }).last();
    await card.locator('.bk-header').waitFor();
    expect(await card.locator('.bk-header').textContent()).toBe(HOSTILE_NAME);
    expect(await card.locator('.bk-fields').textContent()).toContain(HOSTILE_NAME);
    expect(await card.locator('.mention').first().textContent()).toBe('@Ada Park');
    expect(await card.locator('.bk-context code').textContent()).toBe('ps1');
    expect(await card.locator('.bk-context s').textContent()).toBe('old');
    expect(await card.locator('.bk-context time').textContent()).toBe('2023-11-14');
    expect(await card.locator('.bk-primary').textContent()).toBe('Start');
    expect(await page.locator('.timeline img').count()).toBe(0);
    expect(await page.evaluate('window.__xss')).toBeUndefined();
    await page.screenshot({ path: await screenshotPath('sandbox-page-card') });
  });

  it('never builds markup from text, whatever the renderer is given', async () => {
    // Runs in the page, with the page's own renderer module (a string: this is browser code).
    const result = (await page.evaluate(`(async (name) => {
      const { renderBlocks } = await import('/blockkit.js');
      const escaped = name.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const host = document.createElement('div');
      host.append(renderBlocks([
        { type: 'section', text: { type: 'mrkdwn', text: '*' + escaped + '* <javascript:alert(1)|click> ' + name } },
        { type: 'header', text: { type: 'plain_text', text: name } },
        { type: 'actions', elements: [{ type: 'button', action_id: 'a', text: { type: 'plain_text', text: name } }] },
      ], { people: new Map(), channels: new Map(), now: () => Date.now() }));
      return {
        images: host.querySelectorAll('img').length,
        links: [...host.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        text: host.textContent,
      };
    })(${JSON.stringify(HOSTILE_NAME)})`)) as { images: number; links: string[]; text: string };
    expect(result.images).toBe(0);
    expect(result.links).toEqual([]);
    expect(result.text).toContain(`${HOSTILE_NAME} click`);
  });

  it('turns a click into a public card that updates in place, with the completion in its thread', async () => {
    await type('/ps card');
    await page
      .locator('.message.ephemeral')
      .last()
      .getByRole('button', { name: 'Start the machine' })
      .click();
    await page.locator('.message.ephemeral').filter({ hasText: 'Posted the card in the channel.' }).waitFor();
    const card = page.locator('.message:not(.ephemeral)').filter({ hasText: 'Ready' }).last();
    await card.locator('.edited').waitFor();
    await card.locator('button.replies').click();
    const thread = page.locator('#thread-pane');
    await thread.locator('.message').nth(1).waitFor();
    expect(await thread.locator('.message').nth(1).textContent()).toContain(`${HOSTILE_NAME} is ready`);
    expect(await thread.locator('.message').nth(1).locator('b').textContent()).toBe(HOSTILE_NAME);
    await page.screenshot({ path: await screenshotPath('sandbox-page-thread') });
  });

  it('asks before a button with a confirm dialog, and sends nothing when denied', async () => {
    await type('/ps card');
    await page
      .locator('.message.ephemeral')
      .last()
      .getByRole('button', { name: 'Start the machine' })
      .click();
    const card = page.locator('.message:not(.ephemeral)').filter({ hasText: 'Ready' }).last();
    await card.locator('.edited').waitFor();
    scripted.received.length = 0;
    await card.getByRole('button', { name: 'Stop' }).click();
    const dialog = page.locator('#confirm[open]');
    expect(await dialog.locator('h2').textContent()).toBe('Stop it?');
    await dialog.getByRole('button', { name: 'Cancel' }).click();
    await card.getByRole('button', { name: 'Stop' }).click();
    await page.locator('#confirm[open]').getByRole('button', { name: 'Stop' }).click();
    await expect.poll(() => received('action').length).toBe(1);
    expect(received('action')[0]?.body).toMatchObject({ actions: [{ action_id: 'machine_stop' }] });
  });

  it('sends the option chosen in an overflow menu and in a select', async () => {
    await type('/ps card');
    const card = page.locator('.message.ephemeral').last();
    await card.getByRole('button', { name: 'More actions' }).click();
    await card.getByRole('menuitem', { name: '🗑️ Destroy' }).click();
    await card.locator('select').selectOption('ams1');
    await expect.poll(() => received('action').length).toBe(2);
    expect(received('action').map((entry) => entry.body.actions)).toEqual([
      [
        expect.objectContaining({
          type: 'overflow',
          selected_option: expect.objectContaining({ value: 'destroy' }),
        }),
      ],
      [
        expect.objectContaining({
          type: 'static_select',
          selected_option: expect.objectContaining({ value: 'ams1' }),
        }),
      ],
    ]);
  });

  it('opens a modal, shows Slack’s and the app’s field errors, and submits the inputs’ values', async () => {
    await type('/ps modal');
    const modal = page.locator('#modal[open]');
    await modal.getByRole('button', { name: 'Create' }).click();
    await modal.locator('.bk-error').first().waitFor();
    expect(await modal.locator('[data-block-id="region"] .bk-error').textContent()).toBe(
      'Please fill out this required field.',
    );
    expect(received('view_submission')).toEqual([]);

    await modal.getByLabel('Name').fill('taken');
    await modal.getByLabel('Region').selectOption('Europe (AMS1)');
    await modal.getByLabel('hourly').check();
    await modal.getByLabel('Public IP').check();
    await modal.getByLabel('Owner').selectOption('U0MAYA');
    await modal.getByRole('button', { name: 'Create' }).click();
    await modal.locator('[data-block-id="name"] .bk-error').filter({ hasText: 'exists' }).waitFor();
    expect(await modal.locator('.bk-error').count()).toBe(1);
    expect(await modal.getByLabel('Region').inputValue()).toBe('Europe (AMS1)');
    await page.screenshot({ path: await screenshotPath('sandbox-page-modal-errors') });

    await modal.getByLabel('Name').fill('gpu-1');
    await modal.getByRole('button', { name: 'Create' }).click();
    await page.locator('#modal[open]').waitFor({ state: 'detached' });
    const submitted = received('view_submission').at(-1)?.body.view as
      | { state: { values: unknown } }
      | undefined;
    const values = submitted?.state.values;
    expect(values).toMatchObject({
      name: { name_input: { value: 'gpu-1' } },
      region: { region_input: { selected_option: { value: 'Europe (AMS1)' } } },
      size: { size_input: { value: '50' } },
      options: { options_input: { selected_options: [{ value: 'public_ip' }, { value: 'start' }] } },
      billing: { billing_input: { selected_option: { value: 'hourly' } } },
      owner: { owner_input: { selected_user: 'U0MAYA' } },
    });
  });

  it('shows the Home tab the app publishes when it is opened', async () => {
    await page.getByRole('button', { name: /Paperspace Ops/ }).click();
    await page.locator('#home .bk-section').waitFor();
    expect(await page.locator('#home .bk-section').textContent()).toBe('Hello @Ada Park');
    expect(await page.locator('#composer').isHidden()).toBe(true);
  });

  it('switches between people: another person sees the channel but not Ada’s ephemeral messages', async () => {
    await type('/ps hello there');
    await page.locator('.message.ephemeral').filter({ hasText: 'You typed hello there' }).waitFor();
    await type('a message everyone sees');
    await page.locator('.message:not(.ephemeral)').filter({ hasText: 'a message everyone sees' }).waitFor();
    await page.locator('#user-switcher').selectOption('U0MAYA');
    // The channel's message is in Ada's view too, so its presence alone does not say Maya's is drawn:
    // the switch is waited for, then Ada's ephemeral to leave the page.
    await expect.poll(() => new URL(page.url()).searchParams.get('as')).toBe('U0MAYA');
    const adasEphemeral = page.locator('.message.ephemeral').filter({ hasText: 'hello there' });
    await expect.poll(() => adasEphemeral.count()).toBe(0);
    await page.locator('.message').filter({ hasText: 'a message everyone sees' }).waitFor();
    expect(await adasEphemeral.count()).toBe(0);
  });
});
