// The alert's words, drawn without Slack: a machine's name escaped wherever Slack reads mrkdwn (#44),
// and the limit it came after told truly to a reader whose own limit is not the one that passed.
import { describe, expect, it } from 'vitest';
import { type CostAlert, costAlertMessages } from '../../../src/features/cost-alerts/blocks/cost-alert.js';

const HOUR_MS = 3_600_000;
const NOW = Date.parse('2024-05-15T17:10:00Z');

function alert(name: string, own: number, dueAfter: number): CostAlert {
  return {
    machine: { id: `ps${name.length}`, name, machineType: 'A100' },
    runningSince: NOW - 6 * HOUR_MS - 10 * 60_000,
    sinceEstimated: false,
    now: NOW,
    hourlyRate: '3.09',
    thresholdMs: own,
    dueAfterMs: dueAfter,
  };
}

const footerOf = (blocks: unknown[]) => JSON.stringify(blocks.at(-1));

describe('the forgotten-machine alert', () => {
  it('escapes a machine named R&D <gpu> in its notification text, alone or with others', () => {
    const [alone] = costAlertMessages([alert('R&D <gpu>', 6 * HOUR_MS, 6 * HOUR_MS)]);
    expect(alone?.text).toBe('R&amp;D &lt;gpu&gt; has been running for 6 h 10 min, about $19.06 so far');
    expect(JSON.stringify(alone?.blocks)).toContain('*R&amp;D &lt;gpu&gt;* has been running');
    const [together] = costAlertMessages([
      alert('R&D <gpu>', 6 * HOUR_MS, 6 * HOUR_MS),
      alert('gpu-2', 6 * HOUR_MS, 6 * HOUR_MS),
    ]);
    expect(together?.text).toBe('2 machines still running past 6h: R&amp;D &lt;gpu&gt;, gpu-2');
  });

  it('tells a reader whose own limit is 8h that it came after the 6h of another person alerted too', () => {
    const [message] = costAlertMessages([alert('gpu-1', 8 * HOUR_MS, 6 * HOUR_MS)]);
    const footer = footerOf(message?.blocks ?? []);
    expect(footer).toContain('This alert goes to several people');
    expect(footer).toContain('the shortest of their limits, 6h, had passed; yours is 8h');
    expect(footer).not.toContain('You are asked after 8h of running.');
    expect(message?.text).toContain('gpu-1 has been running for 6 h 10 min');
  });

  it('says past the shortest limit in the text of several, and the reader’s own where that made it due', () => {
    const [mixed] = costAlertMessages([
      alert('gpu-1', 8 * HOUR_MS, 6 * HOUR_MS),
      alert('gpu-22', 8 * HOUR_MS, 8 * HOUR_MS),
    ]);
    expect(mixed?.text).toMatch(/^2 machines still running past 6h: /);
    expect(footerOf(mixed?.blocks ?? [])).toContain('Some of these alerts go to several people');
    const [own] = costAlertMessages([alert('gpu-1', 6 * HOUR_MS, 6 * HOUR_MS)]);
    expect(footerOf(own?.blocks ?? [])).toContain('You are asked after 6h of running.');
  });
});
