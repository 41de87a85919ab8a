// A bar chart as Slack's data visualization block draws it
// (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block), built within Slack's
// limits whatever the data: a title of 50 characters, labels of 20 (cut with an ellipsis and kept
// distinct), at most 20 categories (the rest summed as one last "Others" bar) and 1 to 6 series. A
// chart is for the eye only: a screen reader, a notification and an older client read the message's
// text, so chartText says the same amounts in words for it.
import type { KnownBlock } from '@slack/types';
import { truncate } from './text.js';

export const BAR_CHART_LIMITS = { title: 50, axisLabel: 50, label: 20, categories: 20, series: 6 } as const;

/** The block as Slack takes it (@slack/types does not describe it yet). */
export interface BarChartBlock {
  type: 'data_visualization';
  block_id?: string;
  title: string;
  chart: {
    type: 'bar';
    series: { name: string; data: { label: string; value: number }[] }[];
    axis_config: { categories: string[]; x_label?: string; y_label?: string };
  };
}

export interface BarChartData {
  title: string;
  /** The bars' labels, in the order drawn: put the ones a reader looks for first. */
  categories: readonly string[];
  /** One value per category each, in the categories' order. */
  series: readonly { name: string; values: readonly number[] }[];
  xLabel?: string;
  yLabel?: string;
  /** The label of the last bar when there are more categories than Slack draws. */
  others?: string;
  blockId?: string;
}

/**
 * The chart of `data`; undefined when there is nothing to draw (no category), since Slack refuses a
 * chart without a bar. More series than Slack draws, series of the wrong length or a value that is
 * not a number are a caller's mistake, and throw.
 */
export function barChart(data: BarChartData): BarChartBlock | undefined {
  if (data.categories.length === 0) return undefined;
  if (data.series.length === 0 || data.series.length > BAR_CHART_LIMITS.series) {
    throw new RangeError(`A bar chart has 1 to ${BAR_CHART_LIMITS.series} series, not ${data.series.length}`);
  }
  for (const series of data.series) {
    if (series.values.length !== data.categories.length || !series.values.every(Number.isFinite)) {
      throw new RangeError(`Series ${series.name} needs a number for each of the chart's categories`);
    }
  }
  const kept = Math.min(data.categories.length, BAR_CHART_LIMITS.categories - 1);
  const grouped = data.categories.length > BAR_CHART_LIMITS.categories;
  const shown = grouped ? kept : data.categories.length;
  const categories = distinctLabels([
    ...data.categories.slice(0, shown),
    ...(grouped ? [data.others ?? 'Others'] : []),
  ]);
  const names = distinctLabels(data.series.map((series) => series.name));
  const axis: BarChartBlock['chart']['axis_config'] = { categories };
  if (data.xLabel !== undefined) axis.x_label = truncate(data.xLabel, BAR_CHART_LIMITS.axisLabel);
  if (data.yLabel !== undefined) axis.y_label = truncate(data.yLabel, BAR_CHART_LIMITS.axisLabel);
  return {
    type: 'data_visualization',
    ...(data.blockId === undefined ? {} : { block_id: data.blockId }),
    title: truncate(data.title, BAR_CHART_LIMITS.title),
    chart: {
      type: 'bar',
      series: data.series.map((series, index) => {
        const values = [...series.values.slice(0, shown)];
        if (grouped) values.push(exactSum(series.values.slice(shown)));
        return {
          name: names[index] ?? series.name,
          data: values.map((value, at) => ({ label: categories[at] ?? '', value })),
        };
      }),
      axis_config: axis,
    },
  };
}

/**
 * The chart's amounts in words, for the message's text: "Title: A $3.00, B $1.00" (each series named
 * when there are several), with the labels as the chart shows them.
 */
export function chartText(chart: BarChartBlock, format: (value: number) => string): string {
  const { series } = chart.chart;
  const parts = series.map((one) => {
    const points = one.data.map((point) => `${point.label} ${format(point.value)}`).join(', ');
    return series.length > 1 ? `${one.name}: ${points}` : points;
  });
  return `${chart.title}: ${parts.join('; ')}`;
}

/**
 * The chart among a message's blocks. @slack/types' KnownBlock lacks Slack's chart block, so the
 * message's block list takes it through this one cast rather than every builder widening its types.
 */
export function chartBlock(chart: BarChartBlock): KnownBlock {
  return chart as unknown as KnownBlock;
}

/** Labels cut to Slack's 20 characters, a repeated one numbered (`Sam Lee (2)`) so every bar is told apart. */
function distinctLabels(labels: readonly string[]): string[] {
  const used = new Set<string>();
  return labels.map((raw) => {
    const label = raw.trim() === '' ? '—' : raw.trim();
    let candidate = truncate(label, BAR_CHART_LIMITS.label);
    for (let copy = 2; used.has(candidate); copy += 1) {
      const suffix = ` (${copy})`;
      candidate = truncate(label, BAR_CHART_LIMITS.label - suffix.length) + suffix;
    }
    used.add(candidate);
    return candidate;
  });
}

const MAX_DECIMALS = 10;

/** A sum kept to the most decimals of its parts, so $0.10 + $0.20 is drawn 0.3, not 0.30000000000000004. */
function exactSum(values: readonly number[]): number {
  const decimalsOf = (value: number) =>
    /e/i.test(String(value)) ? MAX_DECIMALS : (String(value).split('.')[1] ?? '').length;
  const scale = 10 ** Math.min(Math.max(0, ...values.map(decimalsOf)), MAX_DECIMALS);
  return values.reduce((total, value) => total + Math.round(value * scale), 0) / scale;
}
