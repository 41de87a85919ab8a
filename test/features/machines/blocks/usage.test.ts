import { describe, expect, it } from 'vitest';
import { usageMessage } from '../../../../src/features/machines/blocks/usage.js';
import type { MachineUtilization } from '../../../../src/paperspace/schemas.js';
import { visibleText } from '../../../slack/block-kit/inspect.js';
import { assertBlockKitLimits } from '../../../slack/block-kit/limits.js';

function utilization(
  secondsUsed: number,
  hourlyRate: string,
  monthlyRate: string,
  billingMonth = '2024-05',
  storageSeconds = 2_678_400,
) {
  return {
    machineId: 'psz9xmdl1',
    utilization: { machineId: 'psz9xmdl1', secondsUsed, hourlyRate, billingMonth },
    storageUtilization: { machineId: 'psz9xmdl1', secondsUsed: storageSeconds, monthlyRate, billingMonth },
  } satisfies MachineUtilization;
}

const MID_MAY = Date.UTC(2024, 4, 20, 12, 0);

function usage(...args: Parameters<typeof usageMessage>) {
  const message = usageMessage(...args);
  assertBlockKitLimits(message);
  return message;
}

describe('usageMessage', () => {
  it('estimates the month as hours × hourly rate + monthly storage rate', () => {
    // 12.5 h × $0.78 = $9.75; + $5.00 storage = $14.75
    const { blocks, text } = usage('gpu-1', utilization(45_000, '0.78', '5.00'), MID_MAY);
    const shown = visibleText(blocks);
    expect(shown).toContain('Usage of gpu-1 · May 2024');
    expect(shown).toContain('*Time used*\n12 h 30 min');
    expect(shown).toContain('*Hourly rate*\n$0.78 / h');
    expect(shown).toContain('*Compute*\n$9.75');
    expect(shown).toContain('*Storage*\n$5.00 ($5.00 / month)');
    expect(shown).toContain('*Estimated cost so far*\n$14.75');
    expect(shown).toContain(
      'Compute = 12 h 30 min × $0.78 / h = $9.75. Storage = $5.00 / month for the whole month = $5.00. Estimate = $9.75 + $5.00 = $14.75 (time to the second, days to 4 decimals, each amount rounded to the cent).',
    );
    expect(text).toBe('gpu-1 in May 2024: 12 h 30 min, estimated $14.75');
  });

  it('charges storage only for the days the disk existed: none before the machine was created', () => {
    const before = visibleText(usage('gpu-1', utilization(0, '0.78', '5.00', '2024-04', 0), MID_MAY).blocks);
    expect(before).toContain('*Estimated cost*\n$0.00');
    // Created with 6.2 of May's 31 days left: a fifth of $5.00.
    const created = usage('gpu-1', utilization(3600, '0.78', '5.00', '2024-05', 6.2 * 86_400), MID_MAY);
    const shown = visibleText(created.blocks);
    expect(shown).toContain('*Estimated cost so far*\n$1.78');
    expect(shown).toContain(
      'Compute = 1 h 00 min × $0.78 / h = $0.78. Storage = $5.00 / month × 6.2/31 days the disk existed = $1.00. Estimate = $0.78 + $1.00 = $1.78',
    );
  });

  it('prints a formula whose numbers, redone by hand, give the figures it shows', () => {
    const cents = (dollars: number) => Math.round(dollars * 100);
    for (const [seconds, rate, monthly, storageSeconds] of [
      [43_517, '0.51', '5.00', 2_000_000],
      [3600.9, '0.0045', '0.10', 1_000_000],
      [7_777, '2.30', '7.00', 555_555],
      [170, '0.51', '0.12', 86_400],
    ] as const) {
      const shown = visibleText(
        usage('m', utilization(seconds, rate, monthly, '2024-05', storageSeconds), MID_MAY).blocks,
      );
      const compute = /Compute = (?:(\d+) h )?(\d+) min(?: (\d+) s)? × \$([\d.]+) \/ h = \$([\d.]+)\./.exec(
        shown,
      );
      const storage =
        /Storage = \$([\d.]+) \/ month × ([\d.]+)\/(\d+) days the disk existed = \$([\d.]+)\./.exec(shown);
      const total = /Estimate = \$([\d.]+) \+ \$([\d.]+) = \$([\d.]+)/.exec(shown);
      if (!compute || !storage || !total) throw new Error(`no formula in ${shown}`);
      const [, h, min, sec, hourly, computeShown] = compute.map((part) => Number(part ?? 0));
      const hours = (h ?? 0) + (min ?? 0) / 60 + (sec ?? 0) / 3600;
      const [, monthlyRate, days, monthDays, storageShown] = storage.map(Number);
      expect(cents(hours * (hourly ?? 0))).toBe(cents(computeShown ?? 0));
      expect(cents(((monthlyRate ?? 0) * (days ?? 0)) / (monthDays ?? 1))).toBe(cents(storageShown ?? 0));
      expect(cents(Number(total[1]) + Number(total[2]))).toBe(cents(Number(total[3])));
      expect(shown).toContain(`*Compute*\n$${(computeShown ?? 0).toFixed(2)}`);
      expect(shown).toContain(`*Estimated cost so far*\n$${total[3]}`);
    }
  });

  it('shows a total that is the sum of the shown compute and storage', () => {
    // 170 s × $0.51 = $0.024 (shown $0.02); a day of $0.12 a month in May = $0.004 ($0.00). Their exact
    // sum, $0.028, used to be shown as $0.03 beside a compute of $0.02.
    const shown = visibleText(
      usage('cpu', utilization(170, '0.51', '0.12', '2024-05', 86_400), MID_MAY).blocks,
    );
    expect(shown).toContain('*Compute*\n$0.02');
    expect(shown).toContain('*Estimated cost so far*\n$0.02');
  });

  it('rounds the exact total once, with fractional seconds and a sub-cent rate', () => {
    // 3600.9 s ≈ 1.00025 h × $0.0045 = $0.0045; + $0.10 = $0.1045 -> $0.10
    const shown = visibleText(usage('cpu', utilization(3600.9, '0.0045', '0.10'), MID_MAY).blocks);
    expect(shown).toContain('*Hourly rate*\n$0.0045 / h');
    expect(shown).toContain('*Estimated cost so far*\n$0.10');
    expect(shown).toContain('*Time used*\n1 h 00 min');
  });

  it('says "to date" with the time for the running month and not for a closed one', () => {
    expect(visibleText(usage('gpu-1', utilization(0, '0.78', '5.00'), MID_MAY).blocks)).toContain(
      'Billing month 2024-05, to date as of <!date^1716206400^{date_short_pretty} at {time}|2024-05-20 12:00 UTC>.',
    );
    const closed = visibleText(usage('gpu-1', utilization(0, '0.78', '5.00', '2024-04'), MID_MAY).blocks);
    expect(closed).toContain('*Estimated cost*\n$5.00');
    expect(closed).toContain('Billing month 2024-04.');
    expect(closed).not.toContain('to date');
  });

  it('shows a dash instead of a made-up cost when a rate cannot be read', () => {
    const shown = visibleText(usage('gpu-1', utilization(7200, 'n/a', '5.00'), MID_MAY).blocks);
    expect(shown).toContain('*Estimated cost so far*\n—');
    expect(shown).toContain('*Hourly rate*\nn/a');
    expect(shown).toContain('no estimate');
  });

  it('escapes the machine name in the fallback text', () => {
    expect(usage('<!here>', utilization(0, '1', '1'), MID_MAY).text).toMatch(/^&lt;!here&gt; in May 2024/);
  });
});
