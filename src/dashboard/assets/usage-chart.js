// The stacked bar chart of the usage view (Chart.js, loaded as a classic script: global
// `Chart`). One dataset per group, biggest first; past the palette the smallest groups are
// summed into "Other" so the stack stays readable and its total stays exact. The `unknown`
// bucket of metadata grouping always keeps its own grey dataset.
import { html, useEffect, useRef } from './vendor/preact-htm.js';
import { toMicros } from './format.js';

const PALETTE = [
  '#2563eb',
  '#d97706',
  '#059669',
  '#db2777',
  '#7c3aed',
  '#0891b2',
  '#65a30d',
  '#dc2626',
  '#4f46e5',
];
const UNKNOWN_COLOR = '#9ca3af';
const OTHER_COLOR = '#6b7280';

/** Totals per group over the rows, biggest first by the chosen metric. */
export function summarize(rows) {
  const groups = new Map();
  let micros = 0;
  let requests = 0;
  for (const row of rows) {
    const entry = groups.get(row.group) ?? { group: row.group, micros: 0, requests: 0 };
    entry.micros += toMicros(row.credits);
    entry.requests += row.requestCount;
    groups.set(row.group, entry);
    micros += toMicros(row.credits);
    requests += row.requestCount;
  }
  return { groups: [...groups.values()], micros, requests };
}

function datasetsFor(rows, days, metric, groups, labelOf) {
  const value = (row) => (metric === 'credits' ? toMicros(row.credits) : row.requestCount);
  const weight = (g) => (metric === 'credits' ? g.micros : g.requests);
  const ordered = [...groups].sort((a, b) => weight(b) - weight(a));
  const named = ordered.filter((g) => g.group !== 'unknown');
  const shown = named.slice(0, PALETTE.length);
  const rest = new Set(named.slice(PALETTE.length).map((g) => g.group));
  const index = new Map(days.map((day, i) => [day, i]));
  const series = new Map();
  const seriesOf = (key) => {
    if (!series.has(key)) series.set(key, new Array(days.length).fill(0));
    return series.get(key);
  };
  for (const row of rows) {
    const at = index.get(row.date);
    if (at === undefined) continue;
    const key = rest.has(row.group) ? '\u0000other' : row.group;
    seriesOf(key)[at] += value(row);
  }
  const scale = metric === 'credits' ? 1e6 : 1;
  const dataset = (key, label, color) => ({
    label,
    data: (series.get(key) ?? new Array(days.length).fill(0)).map((v) => v / scale),
    backgroundColor: color,
    borderWidth: 0,
  });
  const datasets = shown.map((g, i) => dataset(g.group, labelOf(g.group), PALETTE[i]));
  if (rest.size) datasets.push(dataset('\u0000other', `Other (${rest.size} groups)`, OTHER_COLOR));
  if (groups.some((g) => g.group === 'unknown')) {
    datasets.push(dataset('unknown', 'unknown', UNKNOWN_COLOR));
  }
  return datasets;
}

export function UsageChart({ rows, query, days, metric, groups, labelOf, description }) {
  const canvas = useRef(null);
  const chart = useRef(null);
  useEffect(() => {
    const data = {
      labels: days.map((d) => d.slice(5)),
      datasets: datasetsFor(rows, days, metric, groups, labelOf),
    };
    if (!chart.current) {
      chart.current = new window.Chart(canvas.current, {
        type: 'bar',
        data,
        options: {
          animation: false,
          maintainAspectRatio: false,
          responsive: true,
          interaction: { mode: 'index', intersect: false },
          plugins: {
            legend: { position: 'bottom', labels: { boxWidth: 12 } },
            tooltip: { itemSort: (a, b) => b.raw - a.raw },
          },
          scales: {
            x: { stacked: true, ticks: { maxRotation: 0, autoSkipPadding: 8 } },
            y: {
              stacked: true,
              beginAtZero: true,
              title: { display: true, text: metric === 'credits' ? 'Credits' : 'Requests' },
            },
          },
        },
      });
    } else {
      chart.current.data = data;
      chart.current.options.scales.y.title.text = metric === 'credits' ? 'Credits' : 'Requests';
      chart.current.update('none');
    }
    // What the canvas shows, readable once it is drawn (the totals above render a frame
    // earlier than this effect).
    canvas.current.dataset.query = query;
    canvas.current.dataset.metric = metric;
  }, [rows, query, days, metric, groups, labelOf]);
  useEffect(() => () => chart.current?.destroy(), []);
  return html`<div class="chart-box">
    <canvas ref=${canvas} id="usage-chart" role="img" aria-label=${description}></canvas>
  </div>`;
}
