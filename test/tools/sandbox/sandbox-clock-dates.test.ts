// The sandbox clock is the messages' clock: moved to a Sunday 3:31 AM, what the bot says is dated by
// that clock, and a reminder set for 12:00 fires when the clock passes 12:00 in the person's zone, in
// a message stamped with that time, even when one move of the clock goes well past it. Dates are read as the page reads them (mrkdwn.js), with the
// sandbox's time as "now".
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../tools/sandbox/start-sandbox.js';
import { captureLogs } from '../../support/log-capture.js';
import { eventually, type SandboxPage, sandboxPage } from './support/sandbox-page.js';

/** An hour east of UTC in December: a reminder read in UTC would fire an hour off. */
const ZONE = 'Europe/Amsterdam';
const ADA = 'U0ADA';
const MINUTE_MS = 60_000;

interface MrkdwnModule {
  formatSlackDate(
    unix: number,
    format: string,
    options: { timeZone: string; locale: string; now: number },
  ): string;
}

let directory: string;
let sandbox: RunningSandbox;
let page: SandboxPage;
let mrkdwn: MrkdwnModule;

const localParts = new Intl.DateTimeFormat('en-US', {
  timeZone: ZONE,
  weekday: 'short',
  hour: 'numeric',
  minute: '2-digit',
  hourCycle: 'h23',
});
/** "Sun 03:31" for an instant, in the person's zone. */
const local = (ms: number) => {
  const parts = Object.fromEntries(localParts.formatToParts(ms).map((part) => [part.type, part.value]));
  return `${parts.weekday} ${String(parts.hour).padStart(2, '0')}:${parts.minute}`;
};

/** The first minute at least a day ahead that reads `wanted` ("Sun 03:31") in the zone. */
function nextLocal(wanted: string, after: number): number {
  let at = Math.ceil((after + 24 * 60 * MINUTE_MS) / MINUTE_MS) * MINUTE_MS;
  while (local(at) !== wanted) at += MINUTE_MS;
  return at;
}

const sandboxNow = () => sandbox.clock.reading().now;
const read = (unix: number, format: string) =>
  mrkdwn.formatSlackDate(unix, format, { timeZone: ZONE, locale: 'en-US', now: sandboxNow() });
const dateTokens = (text: string) =>
  [...text.matchAll(/<!date\^(\d+)\^([^^|>]+)/g)].map(([, unix, format]) => ({
    unix: Number(unix),
    format: format ?? '',
  }));
const tsMs = (ts: string) => Number(ts.split('.')[0]) * 1000;
const dmFromBot = async () =>
  (await page.snapshot(ADA)).messages.filter((message) => message.channel === `D${ADA.slice(1)}`);

beforeAll(async () => {
  mrkdwn = (await import(
    new URL('../../../tools/sandbox/page/mrkdwn.js', import.meta.url).href
  )) as MrkdwnModule;
  directory = await mkdtemp(join(tmpdir(), 'sandbox-clock-dates-'));
  sandbox = await startSandbox({
    logger: captureLogs('warn').logger,
    port: 0,
    dataDir: join(directory, 'data'),
  });
  page = sandboxPage(sandbox.url.replace(/\/$/, ''));
  // Ada's page tells the workspace her zone, as a browser in Amsterdam would.
  const connection = new AbortController();
  const events = await fetch(`${sandbox.url}sandbox/events?user=${ADA}&tz=${encodeURIComponent(ZONE)}`, {
    signal: connection.signal,
  });
  await events.body?.getReader().read();
  connection.abort();
  await page.login(ADA, 'demo-key-ada-individual');
  const sunday = nextLocal('Sun 03:31', sandboxNow());
  await sandbox.clock.advance(sunday - sandboxNow());
}, 60_000);
afterAll(async () => {
  await sandbox?.close();
  await rm(directory, { recursive: true, force: true });
});

it('dates the forgotten machine alert by the sandbox clock: its run began days before Sunday 3:31 AM', async () => {
  const alert = await eventually(
    async () => (await dmFromBot()).find((message) => message.text.includes('has been running')),
    'the cost alert',
  );
  expect(local(tsMs(alert.ts))).toBe('Sun 03:31');
  const [since] = dateTokens(JSON.stringify(alert.blocks));
  expect(since).toBeDefined();
  expect(since?.unix ?? Number.NaN).toBeLessThan(sandboxNow() / 1000 - 24 * 3600);
  expect(read(since?.unix ?? 0, since?.format ?? '')).not.toMatch(/^(Today|Tomorrow)/);
});

it('says a spend report is as of today, by the sandbox clock', async () => {
  await page.post('/sandbox/command', { user: ADA, channel: 'C0GENERAL', text: '/ps spend' });
  const reply = await eventually(async () => {
    const { ephemerals } = await page.snapshot(ADA);
    return ephemerals.find((message) => JSON.stringify(message.blocks).includes('as of'));
  }, 'the spend report');
  const asOf = dateTokens(JSON.stringify(reply.blocks)).find((token) => token.format.includes('pretty'));
  expect(read(asOf?.unix ?? 0, asOf?.format ?? '')).toMatch(/^Today at 3:3\d AM$/);
});

it('fires a reminder set for 12:00 when the sandbox clock passes 12:00 in the person’s zone, not an hour later', {
  timeout: 30_000,
}, async () => {
  await page.post('/sandbox/command', { user: ADA, channel: 'C0GENERAL', text: '/ps remind 12:00 daily' });
  const set = await eventually(async () => {
    const { ephemerals } = await page.snapshot(ADA);
    return ephemerals.find((message) => message.text.includes('Reminder set'));
  }, 'the reminder’s confirmation');
  const [first] = dateTokens(set.text);
  expect(local((first?.unix ?? 0) * 1000)).toBe('Sun 12:00');
  expect(read(first?.unix ?? 0, first?.format ?? '')).toBe('Today at 12:00 PM');

  const reminders = async () =>
    (await dmFromBot()).filter((message) => message.text.includes('still running'));
  await sandbox.clock.advance(nextLocal('Sun 11:59', sandboxNow() - 24 * 60 * MINUTE_MS) - sandboxNow());
  await new Promise((resolve) => setTimeout(resolve, 1500));
  expect(await reminders()).toEqual([]);

  // The page's +1 h from 11:59: the reminder is posted as the clock passes 12:00, stamped 12:00, not
  // at the end of the move (12:59, which reads as an hour late).
  await sandbox.clock.advance(60 * MINUTE_MS);
  const [reminder] = await eventually(async () => {
    const found = await reminders();
    return found.length > 0 ? found : undefined;
  }, 'the reminder');
  expect(local(tsMs(reminder?.ts ?? '0'))).toBe('Sun 12:00');
  expect(local(sandboxNow())).toBe('Sun 12:59');
});
