// The bar chart builder: whatever data it is given, the block it returns is one Slack takes (checked by
// the same rules the fake Slack applies), with the rest of a long list summed as "Others" and labels
// cut and told apart; and its text says the same amounts.
import { describe, expect, it } from 'vitest';
import {
  BAR_CHART_LIMITS,
  type BarChartBlock,
  type BarChartData,
  barChart,
  chartBlock,
  chartText,
} from '../../../src/slack/block-kit/bar-chart.js';
import { assertBlockKitLimits, blockKitViolations } from './limits.js';

/** The chart of data that has something to draw. */
function drawn(data: BarChartData): BarChartBlock {
  const chart = barChart(data);
  if (chart === undefined) throw new Error('expected a chart');
  return chart;
}

const people = (count: number) => Array.from({ length: count }, (_, index) => `Person ${index + 1}`);

describe('barChart', () => {
  it('draws one bar per category with its value, in the order given', () => {
    const chart = drawn({
      title: 'Team spend · December 2026',
      categories: ['Ada Park', 'Sam Lee'],
      series: [{ name: 'Spend', values: [12.5, 3.25] }],
      yLabel: 'US dollars',
    });
    expect(chart).toEqual({
      type: 'data_visualization',
      title: 'Team spend · December 2026',
      chart: {
        type: 'bar',
        series: [
          {
            name: 'Spend',
            data: [
              { label: 'Ada Park', value: 12.5 },
              { label: 'Sam Lee', value: 3.25 },
            ],
          },
        ],
        axis_config: { categories: ['Ada Park', 'Sam Lee'], y_label: 'US dollars' },
      },
    });
    assertBlockKitLimits([chartBlock(chart)]);
  });

  it('keeps 19 categories and sums the rest as one last bar, per series', () => {
    const categories = people(25);
    const chart = drawn({
      title: 'Spend',
      categories,
      series: [
        { name: 'Compute', values: categories.map(() => 0.1) },
        { name: 'Storage', values: categories.map((_, index) => index) },
      ],
      others: 'Everyone else',
    });
    expect(chart.chart.axis_config.categories).toHaveLength(BAR_CHART_LIMITS.categories);
    expect(chart.chart.axis_config.categories.slice(-2)).toEqual(['Person 19', 'Everyone else']);
    const [compute, storage] = chart.chart.series ?? [];
    // People 20 to 25: six of them.
    expect(compute?.data.at(-1)).toEqual({ label: 'Everyone else', value: 0.6 });
    expect(storage?.data.at(-1)?.value).toBe(19 + 20 + 21 + 22 + 23 + 24);
    assertBlockKitLimits([chartBlock(chart)]);
  });

  it('draws exactly 20 categories without grouping any', () => {
    const chart = drawn({
      title: 'Spend',
      categories: people(20),
      series: [{ name: 'S', values: people(20).map(() => 1) }],
    });
    expect(chart.chart.axis_config.categories.at(-1)).toBe('Person 20');
  });

  it('cuts a long title and long labels to Slack’s lengths, keeping equal-looking labels apart', () => {
    const long = 'Alexandra Konstantinopoulou';
    const chart = drawn({
      title: `Team spend for the month of December 2026, by person and machine`,
      categories: [long, `${long} Jr`, ''],
      series: [{ name: 'A very long series name indeed', values: [1, 2, 3] }],
      xLabel: 'x'.repeat(60),
    });
    expect(chart.title).toHaveLength(BAR_CHART_LIMITS.title);
    const labels = chart.chart.axis_config.categories ?? [];
    expect(labels.every((label) => label.length <= BAR_CHART_LIMITS.label && label !== '')).toBe(true);
    expect(new Set(labels).size).toBe(3);
    expect(labels[1]).toMatch(/ \(2\)$/);
    assertBlockKitLimits([chartBlock(chart)]);
  });

  it('draws nothing without a category, and refuses series Slack would not draw', () => {
    expect(barChart({ title: 'Spend', categories: [], series: [{ name: 'S', values: [] }] })).toBeUndefined();
    const seven = Array.from({ length: 7 }, (_, index) => ({ name: `S${index}`, values: [1] }));
    expect(() => barChart({ title: 'T', categories: ['a'], series: seven })).toThrow(RangeError);
    expect(() =>
      barChart({ title: 'T', categories: ['a', 'b'], series: [{ name: 'S', values: [1] }] }),
    ).toThrow(RangeError);
    expect(() =>
      barChart({ title: 'T', categories: ['a'], series: [{ name: 'S', values: [Number.NaN] }] }),
    ).toThrow(RangeError);
  });

  it('is refused by the rules once a limit is broken by hand', () => {
    const chart = drawn({ title: 'T', categories: ['a'], series: [{ name: 'S', values: [1] }] });
    const broken = { ...chart, title: 't'.repeat(51) };
    expect(blockKitViolations([chartBlock(broken)])).toEqual([
      expect.stringContaining('/title: must be less than 51 characters'),
    ]);
  });
});

describe('chartText', () => {
  it('says every bar’s amount, naming the series when there are several', () => {
    const one = drawn({
      title: 'Spend',
      categories: ['Ada', 'Sam'],
      series: [{ name: 'S', values: [3, 1.5] }],
    });
    expect(chartText(one, (value) => `$${value.toFixed(2)}`)).toBe('Spend: Ada $3.00, Sam $1.50');
    const two = drawn({
      title: 'Spend',
      categories: ['Ada'],
      series: [
        { name: 'Compute', values: [3] },
        { name: 'Storage', values: [1] },
      ],
    });
    expect(chartText(two, String)).toBe('Spend: Compute: Ada 3; Storage: Ada 1');
  });
});
