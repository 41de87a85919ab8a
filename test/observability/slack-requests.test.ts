import type { ViewStateValue } from '@slack/bolt';
import { describe, expect, it } from 'vitest';
import { UpdateMachineFields as F } from '../../src/features/machines/blocks/update-machine-modal.js';
import { createBotMetrics } from '../../src/observability/metrics.js';
import { createRequestScope } from '../../src/observability/request-scope.js';
import { instrumentSlackRequests, slackRequestKind } from '../../src/observability/slack-requests.js';
import { encodeMachineModalMetadata } from '../../src/slack/block-kit/modal-metadata.js';
import { ActionId, CallbackId } from '../../src/slack/ids.js';
import { cardValue, eventually } from '../features/machines/machine-kit.js';
import { appWithoutTransport, deliverClick } from '../support/app-without-transport.js';
import { captureLogs } from '../support/log-capture.js';
import { BOT_TOKEN, SIGNING_SECRET, type TestBot, USERS } from '../support/test-bot.js';
import { useTestBot } from '../support/use-test-bot.js';

// The listeners ask for watches through this watcher; it refuses, so that a command fails after its
// first Paperspace calls in a way that is logged (an unexpected failure) and the log lines can be
// checked. A start stores its watch before it is sent (machines/power-intent.ts), so none is sent.
const refusingWatcher = { watch: () => Promise.reject(new Error('the watch store is down')) };

const bot = useTestBot({ recordPaperspaceHeaders: true, watcher: refusingWatcher, linked: ['ada'] });

/** Every series of /metrics with its value, e.g. `psbot_errors_total{source="slack"}` -> 0. */
async function scrape(): Promise<Map<string, number>> {
  const { text } = await bot.get('/metrics');
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const space = line.lastIndexOf(' ');
    series.set(line.slice(0, space), Number(line.slice(space + 1)));
  }
  return series;
}

/** How much each series grew while `act` ran and the requests it made finished. */
async function growthDuring(act: () => Promise<void>): Promise<(series: string) => number> {
  const before = await scrape();
  await act();
  const after = await eventually(async () => {
    const now = await scrape();
    return now.get('psbot_slack_requests_in_flight') === 0 ? now : undefined;
  });
  return (series) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
}

interface LogLine {
  msg: string;
  requestId?: string;
  request?: { kind?: string; command?: string; actionIds?: string[]; callbackId?: string };
  [field: string]: unknown;
}

function logLines(): LogLine[] {
  return bot
    .logText()
    .split('\n')
    .filter((line) => line !== '')
    .map((line) => JSON.parse(line) as LogLine);
}

function handledLines(): LogLine[] {
  return logLines().filter((line) => line.msg === 'Slack request handled');
}

/**
 * Sends a request and waits until the bot has finished handling it (its "Slack request handled" line);
 * answers the id that line names.
 */
async function sendAndFinish(request: Parameters<TestBot['send']>[0]): Promise<string> {
  const before = handledLines().length;
  await bot.send(request);
  const line = await eventually(() => handledLines()[before]);
  if (line.requestId === undefined) throw new Error('the handled line names no request id');
  return line.requestId;
}

function paperspaceCallsOf(requestId: string) {
  return bot.paperspaceRequests.filter((request) => request.headers['x-request-id'] === requestId);
}

describe('Slack request metrics', () => {
  it('count a command and a button click by kind, time their acks and count the Paperspace calls they made', async () => {
    const growth = await growthDuring(async () => {
      const list = bot.requests.slashCommand({ text: 'list' });
      await bot.send(list);
      await bot.slack.waitForResponse(list.responseUrlId ?? '');
      const usage = bot.requests.blockAction({
        actionId: ActionId.machineUsage,
        value: cardValue('psada001', 'ada-workstation'),
      });
      await bot.send(usage);
      await bot.slack.waitForResponse(usage.responseUrlId ?? '');
    });
    expect(growth('psbot_slack_requests_total{kind="command",outcome="acked"}')).toBe(1);
    expect(growth('psbot_slack_requests_total{kind="action",outcome="acked"}')).toBe(1);
    expect(growth('psbot_slack_ack_duration_seconds_count{kind="command"}')).toBe(1);
    expect(growth('psbot_slack_ack_duration_seconds_count{kind="action"}')).toBe(1);
    // Acked at once: well within Slack's 3 s, whatever Paperspace does afterwards.
    expect(growth('psbot_slack_ack_duration_seconds_bucket{le="1",kind="command"}')).toBe(1);
    expect(growth('psbot_paperspace_requests_total{operation="machines.list",status="200"}')).toBe(1);
    expect(growth('psbot_paperspace_requests_total{operation="machines.utilization",status="200"}')).toBe(1);
    expect(growth('psbot_paperspace_request_duration_seconds_count{operation="machines.list"}')).toBe(1);
  });

  it('count Paperspace failures under their HTTP status', async () => {
    bot.emulator.state.failNextRequests({ count: 1, status: 404, path: '/machines/getUtilization' });
    const growth = await growthDuring(async () => {
      const usage = bot.requests.blockAction({
        actionId: ActionId.machineUsage,
        value: cardValue('psada001', 'ada-workstation'),
      });
      await bot.send(usage);
      await bot.slack.waitForResponse(usage.responseUrlId ?? '');
    });
    expect(growth('psbot_paperspace_requests_total{operation="machines.utilization",status="404"}')).toBe(1);
  });

  it('count a request whose listener failed before acking as an error', async () => {
    const growth = await growthDuring(async () => {
      const broken = await bot.send(
        bot.requests.viewSubmission({
          callbackId: CallbackId.updateMachine,
          // Sealed by the bot, so it passes the seal and breaks the listener itself.
          privateMetadata: bot.sealMetadata('not json'),
          values: {},
        }),
      );
      // Answered in words over the form (failure-answers.ts), and still counted as the error it is.
      expect(broken.status).toBe(200);
      expect(broken.body).toMatchObject({ response_action: 'push' });
    });
    expect(growth('psbot_slack_requests_total{kind="view",outcome="error"}')).toBe(1);
    expect(growth('psbot_errors_total{source="slack"}')).toBe(1);
  });
});

describe('request ids', () => {
  it("put a command's id on every Paperspace call it makes and on every line it logs", async () => {
    const request = bot.requests.slashCommand({ text: 'start ada-cpu-box' });
    const requestId = await sendAndFinish(request);
    const reply = await bot.slack.waitForResponse(request.responseUrlId ?? '');
    expect(JSON.stringify(reply)).toMatch(/Something went wrong on our side/);

    const calls = paperspaceCallsOf(requestId).map((call) => call.path);
    expect(calls).toContainEqual(expect.stringContaining('/machines/getMachines'));
    expect(calls).not.toContainEqual('/machines/psada002/start');
    // The failure this command logged carries its id, like the line that closes the request.
    expect(
      logLines()
        .filter((line) => line.requestId === requestId)
        .map((line) => line.msg),
    ).toEqual(['unexpected failure while serving a request', 'Slack request handled']);
  });

  it("put a button click's id on its Paperspace calls", async () => {
    const requestId = await sendAndFinish(
      bot.requests.blockAction({
        actionId: ActionId.machineUsage,
        value: cardValue('psada001', 'ada-workstation'),
      }),
    );
    expect(paperspaceCallsOf(requestId).map((call) => call.path)).toEqual([
      expect.stringContaining('/machines/getUtilization'),
    ]);
  });

  it("put a modal submission's id on its Paperspace calls", async () => {
    const values: Record<string, Record<string, ViewStateValue>> = {
      [F.machineName.blockId]: {
        [F.machineName.actionId]: { type: 'plain_text_input', value: 'ada-renamed' },
      },
      [F.shutdownTimeout.blockId]: { [F.shutdownTimeout.actionId]: { type: 'number_input', value: '2' } },
      [F.shutdownOptions.blockId]: {
        [F.shutdownOptions.actionId]: { type: 'checkboxes', selected_options: [] },
      },
    };
    const requestId = await sendAndFinish(
      bot.requests.viewSubmission({
        callbackId: CallbackId.updateMachine,
        privateMetadata: bot.sealMetadata(
          encodeMachineModalMetadata({ id: 'psada003', name: 'ada-render' }, {}),
        ),
        values,
      }),
    );
    expect(bot.emulator.state.machine('psada003')?.name).toBe('ada-renamed');
    expect(paperspaceCallsOf(requestId).map((call) => call.path)).toContainEqual(
      '/machines/psada003/updateMachinePublic',
    );
  });

  it('are different for every request', () => {
    const ids = logLines()
      .filter((line) => line.msg === 'Slack request handled')
      .map((line) => line.requestId);
    expect(ids.length).toBeGreaterThan(3);
    expect(new Set(ids).size).toBe(ids.length);
  });
});

describe('secrets', () => {
  it('never reach /metrics or the logs: API keys, access tokens, the bot token, the signing secret', async () => {
    const { text } = await bot.get('/metrics');
    const logs = bot.logText();
    const secrets = [
      ...Object.values(USERS).flatMap((user) => [user.apiKey, user.accessToken]),
      BOT_TOKEN,
      SIGNING_SECRET,
    ];
    for (const secret of secrets) {
      expect(text).not.toContain(secret);
      expect(logs).not.toContain(secret);
    }
    // The requests above did reach Paperspace with Ada's key: the check is not vacuous.
    expect(bot.paperspaceRequests.some((request) => request.headers['x-api-key'] === USERS.ada.apiKey)).toBe(
      true,
    );
  });
});

describe('slackRequestKind', () => {
  it('tells commands, interactions, modals, events and the rest apart', () => {
    expect(slackRequestKind({ command: '/ps', text: 'list' })).toBe('command');
    expect(slackRequestKind({ type: 'block_actions' })).toBe('action');
    expect(slackRequestKind({ type: 'view_submission' })).toBe('view');
    expect(slackRequestKind({ type: 'view_closed' })).toBe('view');
    expect(slackRequestKind({ type: 'event_callback' })).toBe('event');
    expect(slackRequestKind({ type: 'block_suggestion' })).toBe('options');
    expect(slackRequestKind({ type: 'shortcut' })).toBe('shortcut');
    expect(slackRequestKind({ type: 'something_new' })).toBe('other');
  });
});

/** The app instrumented as startBot does, with its metrics and logs to read. */
function bareApp() {
  const app = appWithoutTransport();
  const logs = captureLogs();
  const metrics = createBotMetrics({
    countActiveWatches: async () => 0,
    logger: logs.logger,
    processMetrics: false,
  });
  let ids = 0;
  const tracker = instrumentSlackRequests(app, {
    metrics,
    scope: createRequestScope(),
    logger: logs.logger,
    newRequestId: () => `req-${++ids}`,
  });
  const click = (actionId: string) => {
    const acks: unknown[] = [];
    const done = deliverClick(app, { actionId }, async (response) => {
      acks.push(response);
    });
    return { done, acks };
  };
  const series = async (name: string) => {
    const line = (await metrics.exposition())
      .split('\n')
      .find((candidate) => candidate.startsWith(`${name} `));
    return line === undefined ? undefined : Number(line.slice(name.length + 1));
  };
  return { app, tracker, click, series, logs };
}

describe('instrumentSlackRequests', () => {
  it("gives listeners the request's id in context and passes their ack on to the receiver", async () => {
    const { app, click } = bareApp();
    let seen: unknown;
    app.action('go', async ({ ack, context }) => {
      await ack();
      seen = context.requestId;
    });
    const request = click('go');
    await request.done;
    expect(seen).toBe('req-1');
    expect(request.acks).toHaveLength(1);
  });

  it('counts a request nothing acknowledged as unacked', async () => {
    const { click, series } = bareApp();
    await click('nobody_listens').done;
    expect(await series('psbot_slack_requests_total{kind="action",outcome="unacked"}')).toBe(1);
    expect(await series('psbot_slack_ack_duration_seconds_count{kind="action"}')).toBeUndefined();
  });

  it('counts a listener that throws after its ack as an error, with its ack still timed', async () => {
    const { app, click, series } = bareApp();
    app.action('breaks', async ({ ack }) => {
      await ack();
      throw new Error('bug after the ack');
    });
    await expect(click('breaks').done).rejects.toThrow('bug after the ack');
    expect(await series('psbot_slack_requests_total{kind="action",outcome="error"}')).toBe(1);
    expect(await series('psbot_slack_ack_duration_seconds_count{kind="action"}')).toBe(1);
    expect(await series('psbot_errors_total{source="slack"}')).toBe(1);
    expect(await series('psbot_slack_requests_in_flight')).toBe(0);
  });

  it('lets shutdown wait for requests under way, and stops waiting after the time it was given', async () => {
    const { app, click, tracker, logs } = bareApp();
    let release: () => void = () => undefined;
    app.action('slow', async ({ ack }) => {
      await ack();
      await new Promise<void>((resolve) => {
        release = resolve;
      });
    });
    const request = click('slow');
    await eventually(() => (request.acks.length === 1 ? true : undefined));
    expect(tracker.inFlight()).toBe(1);

    expect(await tracker.drain(20)).toEqual({ unfinished: 1 });
    expect(logs.text()).toContain('stopped waiting for Slack requests still being handled');

    const drained = tracker.drain(5_000);
    release();
    expect(await drained).toEqual({ unfinished: 0 });
    await request.done;
  });
});
