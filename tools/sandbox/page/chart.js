// Slack's data visualization block drawn as SVG: a bar chart's categories down the side, a bar per
// series in each (Slack groups a category's bars), the value beside each bar and a legend when there are
// several series; a pie as its segments in a row. Labels are set as text nodes, never as markup, and
// the chart's title names it for a screen reader, as the message's text does in Slack.

const SVG = 'http://www.w3.org/2000/svg';
const COLOURS = ['#1264a3', '#2bac76', '#e8912d', '#cd2553', '#7c3085', '#4a4a4a'];
const LABEL_WIDTH = 150;
const BAR_AREA = 280;
const VALUE_WIDTH = 80;
const BAR_HEIGHT = 14;
const GAP = 8;

function svgNode(tag, attributes = {}, text) {
  const node = document.createElementNS(SVG, tag);
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
  if (text !== undefined) node.textContent = text;
  return node;
}

const valueText = (value) => (Number.isInteger(value) ? String(value) : value.toFixed(2));

/** The bar chart's series as rows: one per category, each with every series' value there. */
function barRows(chart) {
  const categories = chart.axis_config?.categories ?? [];
  return categories.map((category) => ({
    category,
    values: (chart.series ?? []).map((series) => {
      const point = (series.data ?? []).find((entry) => entry.label === category);
      return { series: series.name, value: typeof point?.value === 'number' ? point.value : 0 };
    }),
  }));
}

function drawBars(chart) {
  const rows = barRows(chart);
  const seriesCount = Math.max(1, (chart.series ?? []).length);
  const rowHeight = seriesCount * BAR_HEIGHT + GAP;
  const biggest = Math.max(0, ...rows.flatMap((row) => row.values.map((entry) => entry.value)));
  const width = LABEL_WIDTH + BAR_AREA + VALUE_WIDTH;
  const height = rows.length * rowHeight + GAP;
  const svg = svgNode('svg', { viewBox: `0 0 ${width} ${height}`, width, height, class: 'bk-chart-bars' });
  rows.forEach((row, index) => {
    const top = GAP + index * rowHeight;
    const group = svgNode('g', { class: 'bk-chart-row', 'data-category': row.category });
    group.append(
      svgNode(
        'text',
        { x: LABEL_WIDTH - 8, y: top + (seriesCount * BAR_HEIGHT) / 2 + 4, 'text-anchor': 'end' },
        row.category,
      ),
    );
    row.values.forEach((entry, at) => {
      const length = biggest > 0 ? Math.max(0, (entry.value / biggest) * BAR_AREA) : 0;
      const y = top + at * BAR_HEIGHT;
      const bar = svgNode('rect', {
        class: 'bk-chart-bar',
        x: LABEL_WIDTH,
        y,
        width: length.toFixed(1),
        height: BAR_HEIGHT - 2,
        fill: COLOURS[at % COLOURS.length],
      });
      bar.append(svgNode('title', {}, `${row.category}, ${entry.series}: ${valueText(entry.value)}`));
      group.append(
        bar,
        svgNode('text', { x: LABEL_WIDTH + length + 6, y: y + BAR_HEIGHT - 4 }, valueText(entry.value)),
      );
    });
    svg.append(group);
  });
  return svg;
}

function legend(names) {
  const list = document.createElement('ul');
  list.className = 'bk-chart-legend';
  names.forEach((name, index) => {
    const item = document.createElement('li');
    const swatch = svgNode('svg', { width: 10, height: 10 });
    swatch.append(svgNode('rect', { width: 10, height: 10, fill: COLOURS[index % COLOURS.length] }));
    item.append(swatch, document.createTextNode(` ${name}`));
    list.append(item);
  });
  return list;
}

/** The block's chart as a figure: its title, the bars (or a pie's segments), the axes' labels. */
export function renderChart(block) {
  const figure = document.createElement('figure');
  figure.className = 'bk-chart';
  figure.setAttribute('role', 'img');
  figure.setAttribute('aria-label', block.title ?? 'chart');
  const caption = document.createElement('figcaption');
  caption.textContent = block.title ?? '';
  figure.append(caption);
  const chart = block.chart ?? {};
  if (chart.type === 'pie') {
    const bars = {
      series: [{ name: 'Share', data: chart.segments ?? [] }],
      axis_config: { categories: (chart.segments ?? []).map((segment) => segment.label) },
    };
    figure.append(drawBars(bars));
    return figure;
  }
  figure.append(drawBars(chart));
  const axis = [chart.axis_config?.x_label, chart.axis_config?.y_label].filter(Boolean).join(' · ');
  if (axis) {
    const note = document.createElement('div');
    note.className = 'bk-chart-axis';
    note.textContent = axis;
    figure.append(note);
  }
  if ((chart.series ?? []).length > 1) figure.append(legend(chart.series.map((series) => series.name)));
  return figure;
}
