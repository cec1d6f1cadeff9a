// The usage view: credits (or requests) per day as a stacked bar chart by the chosen
// grouping, the period's totals, a table per group, filters, and the same query as a CSV.
import { html, useEffect, useMemo, useRef, useState } from './vendor/preact-htm.js';
import { describeError, getCsv, getJson } from './api.js';
import { RevisedDays } from './revised-days.js';
import {
  formatCount,
  formatCredits,
  formatCreditsExact,
  formatPercent,
  toMicros,
} from './format.js';
import { summarize, UsageChart } from './usage-chart.js';
import { UsageFilters } from './usage-filters.js';
import {
  activeFilterCount,
  daysOf,
  emptyFilters,
  exportQuery,
  FILTERS,
  GROUP_BY,
  timeZoneChoices,
  optionsQuery,
  PRESETS,
  presetRange,
  splitGroupBy,
} from './usage-query.js';

/**
 * Runs `load` whenever `key` changes and keeps only the newest answer; `state.key` says
 * which request the value answers (the export URL, for the usage).
 */
function useLatest(load, key, attempt = 0) {
  const [state, setState] = useState({ status: 'loading', value: null, error: null, key: null });
  const generation = useRef(0);
  useEffect(() => {
    const mine = ++generation.current;
    setState((s) => ({ ...s, status: 'loading' }));
    load().then(
      (value) =>
        mine === generation.current && setState({ status: 'ready', value, error: null, key }),
      (error) =>
        mine === generation.current && setState({ status: 'error', value: null, error, key }),
    );
  }, [key, attempt]);
  return state;
}

async function distinctGroups(query) {
  const body = await getJson(query);
  return [...new Set(body.data.map((row) => row.group))].sort();
}

/** The values each filter can take in the period: the export grouped by that dimension. */
async function loadFilterValues(scope) {
  const lists = await Promise.all(
    FILTERS.map(({ groupBy }) => distinctGroups(optionsQuery(scope, groupBy))),
  );
  return Object.fromEntries(FILTERS.map(({ param }, i) => [param, lists[i]]));
}

function download({ name, blob }) {
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}

export function UsageView({ orgId, metadataKeys, labelOfKey }) {
  const [preset, setPreset] = useState('30d');
  const [timeZone, setTimeZone] = useState('UTC');
  const [range, setRange] = useState(() => presetRange('30d'));
  const [groupBy, setGroupBy] = useState('product');
  const [metric, setMetric] = useState('credits');
  const [filters, setFilters] = useState(emptyFilters);
  const [notice, setNotice] = useState('');
  const scope = { orgId, start: range.start, end: range.end, timeZone };
  const query = exportQuery({ ...scope, groupBy, filters });
  const groupingKey = splitGroupBy(groupBy).metadataKey;
  const valueKey = groupingKey ?? filters.metadataKey;

  const [attempt, setAttempt] = useState(0);
  const usage = useLatest(() => getJson(query), query, attempt);
  useEffect(() => setNotice(''), [query]);
  const filterValues = useLatest(
    () => loadFilterValues(scope),
    [orgId, range.start, range.end, timeZone].join(' '),
  );
  const metadataValues = useLatest(
    () =>
      valueKey ? distinctGroups(optionsQuery(scope, 'metadata', valueKey)) : Promise.resolve([]),
    [orgId, range.start, range.end, timeZone, valueKey].join(' '),
  );
  const options = { ...filterValues.value, metadataValue: metadataValues.value ?? [] };

  useEffect(() => {
    setFilters(emptyFilters());
    setGroupBy('product');
  }, [orgId]);

  const rows = usage.value?.data ?? [];
  const days = useMemo(() => daysOf(range.start, range.end), [range.start, range.end]);
  const summary = useMemo(() => summarize(rows), [rows]);
  const isKeys = splitGroupBy(groupBy).groupBy === 'api_key';
  const labelOf = useMemo(() => (isKeys ? labelOfKey : (g) => g), [isKeys, labelOfKey]);
  const sortedGroups = [...summary.groups].sort(
    (a, b) => b.micros - a.micros || b.requests - a.requests,
  );
  const groupLabel = groupingKey
    ? `metadata key ${groupingKey}`
    : GROUP_BY.find((g) => g.value === groupBy).label.toLowerCase();

  const choosePreset = (value) => {
    setPreset(value);
    if (value !== 'custom') setRange(presetRange(value, new Date(), timeZone));
  };
  const chooseTimeZone = (value) => {
    setTimeZone(value);
    if (preset !== 'custom') setRange(presetRange(preset, new Date(), value));
  };
  const chooseDate = (field, value) => {
    if (!value) return;
    setPreset('custom');
    setRange((r) => ({ ...r, [field]: value }));
  };
  const downloadCsv = async () => {
    setNotice('Preparing the CSV…');
    try {
      const file = await getCsv(query);
      download(file);
      setNotice(`Downloaded ${file.name}`);
    } catch (error) {
      setNotice(`Download failed: ${describeError(error)}`);
    }
  };

  return html`<section class="view" aria-labelledby="view-title">
    <h2 id="view-title" tabindex="-1">Usage</h2>
    <div class="controls">
      <div class="field">
        <label for="range-preset">Period</label>
        <select
          id="range-preset"
          value=${preset}
          onChange=${(e) => choosePreset(e.currentTarget.value)}
        >
          ${PRESETS.map((p) => html`<option value=${p.value}>${p.label}</option>`)}
          <option value="custom">Custom dates</option>
        </select>
      </div>
      <div class="field">
        <label for="range-start">From</label>
        <input
          id="range-start"
          type="date"
          value=${range.start}
          max=${range.end}
          onChange=${(e) => chooseDate('start', e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="range-end">To</label>
        <input
          id="range-end"
          type="date"
          value=${range.end}
          min=${range.start}
          onChange=${(e) => chooseDate('end', e.currentTarget.value)}
        />
      </div>
      <div class="field">
        <label for="time-zone">Days in</label>
        <select
          id="time-zone"
          value=${timeZone}
          onChange=${(e) => chooseTimeZone(e.currentTarget.value)}
        >
          ${timeZoneChoices().map((z) => html`<option value=${z}>${z}</option>`)}
        </select>
      </div>
      <div class="field">
        <label for="group-by">Group by</label>
        <select id="group-by" value=${groupBy} onChange=${(e) => setGroupBy(e.currentTarget.value)}>
          ${GROUP_BY.map((g) => html`<option value=${g.value}>${g.label}</option>`)}
          ${metadataKeys.map((k) => html`<option value=${`metadata:${k}`}>Metadata: ${k}</option>`)}
        </select>
      </div>
      <fieldset class="field metric">
        <legend>Show</legend>
        ${[
          ['credits', 'Credits'],
          ['requests', 'Requests'],
        ].map(
          ([value, label]) =>
            html`<label class="radio">
              <input
                type="radio"
                name="metric"
                value=${value}
                checked=${metric === value}
                onChange=${() => setMetric(value)}
              />
              ${label}
            </label>`,
        )}
      </fieldset>
      <button
        type="button"
        id="download-csv"
        class="primary"
        onClick=${downloadCsv}
        disabled=${usage.status !== 'ready'}
      >
        Download CSV
      </button>
    </div>
    <${UsageFilters}
      options=${options}
      filters=${filters}
      onChange=${setFilters}
      metadataKeys=${metadataKeys}
      groupingKey=${groupingKey}
      labelOfKey=${labelOfKey}
    />
    ${
      activeFilterCount(filters) > 0
        ? html`<p class="muted">
            ${activeFilterCount(filters)} filter value(s) applied.${' '}
            <button type="button" class="link" onClick=${() => setFilters(emptyFilters())}>
              Clear filters
            </button>
          </p>`
        : ''
    }
    <p class="sr-only" role="status" aria-live="polite">${notice}</p>
    ${notice ? html`<p class="muted" aria-hidden="true">${notice}</p>` : ''}
    ${
      usage.status === 'error'
        ? ''
        : html`<dl
            class="totals"
            id="usage-totals"
            data-credits-micros=${summary.micros}
            data-requests=${summary.requests}
            data-query=${usage.status === 'ready' ? usage.key : ''}
            aria-busy=${usage.status === 'loading'}
          >
            <div>
              <dt>Credits</dt>
              <dd>${formatCredits(summary.micros)}</dd>
            </div>
            <div>
              <dt>Requests</dt>
              <dd>${formatCount(summary.requests)}</dd>
            </div>
            <div>
              <dt>Period</dt>
              <dd>${range.start} – ${range.end}</dd>
            </div>
          </dl>`
    }
    ${
      usage.status === 'error'
        ? html`<div class="state error" role="alert">
            <p>The usage could not be loaded: ${describeError(usage.error)}</p>
            <button type="button" onClick=${() => setAttempt((n) => n + 1)}>Retry</button>
          </div>`
        : usage.status === 'ready' && rows.length === 0
          ? html`<div class="state empty" id="usage-empty">
              <p><strong>No usage in this period.</strong></p>
              <p>
                Requests made with this organization's processing keys appear here within seconds.
                Try a longer period or clear the filters.
              </p>
            </div>`
          : html`<${UsageChart}
              rows=${rows}
              query=${usage.key}
              days=${days}
              metric=${metric}
              groups=${summary.groups}
              labelOf=${labelOf}
              description=${`Stacked bar chart of ${metric} per day by ${groupLabel}, ${range.start} to ${range.end}; the table below lists the same figures.`}
            />`
    }
    <${RevisedDays} orgId=${orgId} start=${range.start} end=${range.end} />
    ${
      rows.length > 0
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-labelledby="groups-caption">
              <table id="usage-table">
                <caption id="groups-caption">
                  Usage by ${groupLabel}
                </caption>
                <thead>
                  <tr>
                    <th scope="col">
                      ${groupingKey ?? GROUP_BY.find((g) => g.value === groupBy).label}
                    </th>
                    <th scope="col" class="num">Credits</th>
                    <th scope="col" class="num">Requests</th>
                    <th scope="col" class="num">Share of credits</th>
                  </tr>
                </thead>
                <tbody>
                  ${sortedGroups.map(
                    (g) =>
                      html`<tr key=${g.group}>
                        <th scope="row">${labelOf(g.group)}</th>
                        <td class="num" data-micros=${g.micros}>${formatCreditsExact(g.micros)}</td>
                        <td class="num">${formatCount(g.requests)}</td>
                        <td class="num">${formatPercent(g.micros, summary.micros)}</td>
                      </tr>`,
                  )}
                </tbody>
                <tfoot>
                  <tr>
                    <th scope="row">Total</th>
                    <td class="num">${formatCreditsExact(summary.micros)}</td>
                    <td class="num">${formatCount(summary.requests)}</td>
                    <td class="num">100%</td>
                  </tr>
                </tfoot>
              </table>
            </div>
            <${DailyTable} rows=${rows} labelOf=${labelOf} />`
        : ''
    }
  </section>`;
}

function DailyTable({ rows, labelOf }) {
  const [open, setOpen] = useState(false);
  return html`<details class="daily" onToggle=${(e) => setOpen(e.currentTarget.open)}>
    <summary>Day-by-day figures (${formatCount(rows.length)} rows)</summary>
    ${
      open
        ? html`<div class="table-wrap" tabindex="0" role="region" aria-label="Day-by-day figures">
            <table>
              <thead>
                <tr>
                  <th scope="col">Date</th>
                  <th scope="col">Group</th>
                  <th scope="col" class="num">Credits</th>
                  <th scope="col" class="num">Requests</th>
                </tr>
              </thead>
              <tbody>
                ${rows.map(
                  (r) =>
                    html`<tr>
                      <td>${r.date}</td>
                      <td>${labelOf(r.group)}</td>
                      <td class="num">${formatCreditsExact(toMicros(r.credits))}</td>
                      <td class="num">${formatCount(r.requestCount)}</td>
                    </tr>`,
                )}
              </tbody>
            </table>
          </div>`
        : ''
    }
  </details>`;
}
