import { describe, expect, it } from 'vitest';
import { createBotMetrics } from '../../src/observability/metrics.js';
import { captureLogs } from '../support/log-capture.js';

function metricsWith(countActiveWatches: () => Promise<number>, options: { processMetrics?: boolean } = {}) {
  const logs = captureLogs();
  const metrics = createBotMetrics({
    countActiveWatches,
    logger: logs.logger,
    collectTimeoutMs: 50,
    processMetrics: options.processMetrics ?? false,
  });
  return { metrics, logs };
}

/** The value of one series in a Prometheus text exposition, e.g. `psbot_errors_total{source="slack"}`. */
function sample(text: string, series: string): number | undefined {
  const line = text.split('\n').find((candidate) => candidate.startsWith(`${series} `));
  return line === undefined ? undefined : Number(line.slice(series.length + 1));
}

describe('createBotMetrics', () => {
  it('keeps each bot in its own registry, so two bots in one process count separately', async () => {
    const first = metricsWith(async () => 0).metrics;
    const second = metricsWith(async () => 0).metrics;
    first.errorOccurred('slack');
    first.errorOccurred('slack');
    second.errorOccurred('slack');
    expect(sample(await first.exposition(), 'psbot_errors_total{source="slack"}')).toBe(2);
    expect(sample(await second.exposition(), 'psbot_errors_total{source="slack"}')).toBe(1);
  });

  it('shows every error source and reminder kind at zero before anything happened', async () => {
    const text = await metricsWith(async () => 0).metrics.exposition();
    for (const source of ['slack', 'scheduler', 'reminder', 'completion']) {
      expect(sample(text, `psbot_errors_total{source="${source}"}`)).toBe(0);
    }
    expect(sample(text, 'psbot_reminders_fired_total{kind="scheduled"}')).toBe(0);
    expect(sample(text, 'psbot_reminders_fired_total{kind="snoozed"}')).toBe(0);
  });

  it('counts Paperspace calls by operation and status, a failed connection as status "error", in seconds', async () => {
    const { metrics } = metricsWith(async () => 0);
    metrics.paperspaceResponse({
      operation: 'machines.start',
      method: 'POST',
      status: 200,
      durationMs: 120,
      attempt: 1,
    });
    metrics.paperspaceResponse({
      operation: 'machines.start',
      method: 'POST',
      status: 'error',
      durationMs: 30,
      attempt: 1,
    });
    metrics.paperspaceResponse({
      operation: 'machines.list',
      method: 'GET',
      status: 503,
      durationMs: 50,
      attempt: 2,
    });
    const text = await metrics.exposition();
    expect(sample(text, 'psbot_paperspace_requests_total{operation="machines.start",status="200"}')).toBe(1);
    expect(sample(text, 'psbot_paperspace_requests_total{operation="machines.start",status="error"}')).toBe(
      1,
    );
    expect(sample(text, 'psbot_paperspace_requests_total{operation="machines.list",status="503"}')).toBe(1);
    expect(sample(text, 'psbot_paperspace_request_duration_seconds_count{operation="machines.start"}')).toBe(
      2,
    );
    expect(
      sample(text, 'psbot_paperspace_request_duration_seconds_sum{operation="machines.start"}'),
    ).toBeCloseTo(0.15);
  });

  it('tracks Slack requests in flight and counts each one when it ends', async () => {
    const { metrics } = metricsWith(async () => 0);
    metrics.slackRequestStarted();
    metrics.slackRequestStarted();
    metrics.slackRequestAcked('command', 0.004);
    metrics.slackRequestFinished('command', 'acked');
    const text = await metrics.exposition();
    expect(sample(text, 'psbot_slack_requests_in_flight')).toBe(1);
    expect(sample(text, 'psbot_slack_requests_total{kind="command",outcome="acked"}')).toBe(1);
    expect(sample(text, 'psbot_slack_ack_duration_seconds_bucket{le="0.005",kind="command"}')).toBe(1);
  });

  it('reads the active watches from the store at each scrape', async () => {
    let active = 3;
    const { metrics } = metricsWith(async () => active);
    expect(sample(await metrics.exposition(), 'psbot_watches_active')).toBe(3);
    active = 1;
    expect(sample(await metrics.exposition(), 'psbot_watches_active')).toBe(1);
  });

  it('still answers a scrape when the store fails or hangs, with NaN active watches and a warning', async () => {
    const failing = metricsWith(() => Promise.reject(new Error('database is locked')));
    expect(sample(await failing.metrics.exposition(), 'psbot_watches_active')).toBeNaN();
    expect(failing.logs.text()).toContain('could not count active watches');

    const hanging = metricsWith(() => new Promise<number>(() => undefined));
    expect(sample(await hanging.metrics.exposition(), 'psbot_watches_active')).toBeNaN();
    expect(hanging.logs.text()).toContain('did not answer within 50 ms');
  });

  it('adds process and Node.js metrics when asked', async () => {
    const withProcess = metricsWith(async () => 0, { processMetrics: true }).metrics;
    expect(await withProcess.exposition()).toContain('process_resident_memory_bytes');
    expect(await metricsWith(async () => 0).metrics.exposition()).not.toContain(
      'process_resident_memory_bytes',
    );
  });
});
