// The data visualization block (a chart), as Slack's reference describes it
// (https://docs.slack.dev/reference/block-kit/blocks/data-visualization-block): a title of at most 50
// characters and one chart, pie or bar, area or line. A bar, area or line chart has 1 to 6 series,
// each named uniquely in at most 20 characters with 1 to 20 data points, and an axis_config whose
// categories (at most 20 characters each) are the points' labels: every series has one point for each
// category. Axis titles take 50 characters; a pie has 1 to 6 segments, each labelled in 20 characters
// and worth more than 0. Two further rules come from Block Kit libraries' reading of it (the Rust
// crates slack-messaging and slack-morphism), not from the part of the page we could read: 1 to 20
// categories (a series holds 1 to 20 points, one per category), and at most two charts in a message.
import { isRecord } from './http-util.js';

const CHART_LIMITS = {
  title: 50,
  axisLabel: 50,
  label: 20,
  series: 6,
  points: 20,
  segments: 6,
  perMessage: 2,
} as const;

const SERIES_CHARTS = new Set(['bar', 'area', 'line']);

/** Reports a problem at a JSON pointer, in Slack's words. */
export type ReportProblem = (pointer: string, what: string) => void;

function checkLabel(add: ReportProblem, pointer: string, value: unknown, max: number): void {
  if (typeof value !== 'string' || value.length === 0) add(pointer, 'must be more than 0 characters');
  else if (value.length > max) add(pointer, `must be less than ${max + 1} characters`);
}

function checkNumber(add: ReportProblem, pointer: string, value: unknown, positive: boolean): void {
  if (typeof value !== 'number' || !Number.isFinite(value)) add(pointer, 'must be a number');
  else if (positive && value <= 0) add(pointer, 'must be greater than 0');
}

function checkCount(add: ReportProblem, pointer: string, list: unknown, max: number): list is unknown[] {
  if (!Array.isArray(list) || list.length === 0) {
    add(pointer, 'must provide at least one item');
    return false;
  }
  if (list.length > max) add(pointer, `must provide no more than ${max} items`);
  return true;
}

function checkPie(add: ReportProblem, pointer: string, chart: Record<string, unknown>): void {
  if (!checkCount(add, `${pointer}/segments`, chart.segments, CHART_LIMITS.segments)) return;
  chart.segments.forEach((segment, index) => {
    const at = `${pointer}/segments/${index}`;
    if (!isRecord(segment)) {
      add(at, 'must provide an object');
      return;
    }
    checkLabel(add, `${at}/label`, segment.label, CHART_LIMITS.label);
    checkNumber(add, `${at}/value`, segment.value, true);
  });
}

function checkCategories(add: ReportProblem, pointer: string, axis: unknown): string[] | undefined {
  if (!isRecord(axis)) {
    add(pointer, 'must provide an object');
    return undefined;
  }
  for (const key of ['x_label', 'y_label'] as const) {
    if (axis[key] !== undefined) checkLabel(add, `${pointer}/${key}`, axis[key], CHART_LIMITS.axisLabel);
  }
  if (!checkCount(add, `${pointer}/categories`, axis.categories, CHART_LIMITS.points)) return undefined;
  axis.categories.forEach((category, index) => {
    checkLabel(add, `${pointer}/categories/${index}`, category, CHART_LIMITS.label);
  });
  return axis.categories.filter((category): category is string => typeof category === 'string');
}

function checkSeriesChart(add: ReportProblem, pointer: string, chart: Record<string, unknown>): void {
  const categories = checkCategories(add, `${pointer}/axis_config`, chart.axis_config);
  if (!checkCount(add, `${pointer}/series`, chart.series, CHART_LIMITS.series)) return;
  const names = new Set<unknown>();
  chart.series.forEach((series, index) => {
    const at = `${pointer}/series/${index}`;
    if (!isRecord(series)) {
      add(at, 'must provide an object');
      return;
    }
    checkLabel(add, `${at}/name`, series.name, CHART_LIMITS.label);
    if (names.has(series.name)) add(`${at}/name`, 'must be unique within the chart');
    names.add(series.name);
    if (!checkCount(add, `${at}/data`, series.data, CHART_LIMITS.points)) return;
    const labels: unknown[] = [];
    series.data.forEach((point, pointIndex) => {
      const pointAt = `${at}/data/${pointIndex}`;
      if (!isRecord(point)) {
        add(pointAt, 'must provide an object');
        return;
      }
      checkLabel(add, `${pointAt}/label`, point.label, CHART_LIMITS.label);
      checkNumber(add, `${pointAt}/value`, point.value, false);
      labels.push(point.label);
    });
    const onePerCategory =
      categories !== undefined &&
      labels.length === categories.length &&
      categories.every((category) => labels.filter((label) => label === category).length === 1);
    if (categories !== undefined && !onePerCategory) {
      add(`${at}/data`, 'must have one data point for each of axis_config.categories');
    }
  });
}

/** Checks one data_visualization block, reporting each problem where it is. */
export function checkDataVisualization(
  add: ReportProblem,
  pointer: string,
  block: Record<string, unknown>,
): void {
  checkLabel(add, `${pointer}/title`, block.title, CHART_LIMITS.title);
  const chart = block.chart;
  if (!isRecord(chart)) {
    add(`${pointer}/chart`, 'must provide an object');
    return;
  }
  if (chart.type === 'pie') checkPie(add, `${pointer}/chart`, chart);
  else if (typeof chart.type === 'string' && SERIES_CHARTS.has(chart.type)) {
    checkSeriesChart(add, `${pointer}/chart`, chart);
  } else add(`${pointer}/chart/type`, 'must be pie, bar, area or line');
}

/** More charts in one message than Slack takes: reported at the first one too many. */
export function checkChartCount(add: ReportProblem, pointer: string, blocks: unknown[]): void {
  let charts = 0;
  blocks.forEach((block, index) => {
    if (!isRecord(block) || block.type !== 'data_visualization') return;
    charts += 1;
    if (charts === CHART_LIMITS.perMessage + 1) {
      add(`${pointer}/${index}`, `no more than ${CHART_LIMITS.perMessage} data_visualization blocks allowed`);
    }
  });
}
