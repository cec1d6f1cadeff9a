// Filters of the usage view: one checkbox list per repeatable export filter (products,
// features, API keys, file types) and metadata values of one enabled key. The choices are
// the values that occur in the chosen period, read from the export itself.
import { html } from './vendor/preact-htm.js';
import { FILTERS } from './usage-query.js';

function toggled(list, value, on) {
  return on ? [...list, value] : list.filter((v) => v !== value);
}

function CheckList({ id, legend, values, chosen, labelOf, onChange }) {
  const count = chosen.length;
  return html`<details class="filter">
    <summary>${legend}${count ? html` <span class="badge">${count}</span>` : ''}</summary>
    <fieldset>
      <legend class="sr-only">${legend}</legend>
      ${
        values.length === 0
          ? html`<p class="muted">No values in this period.</p>`
          : values.map(
              (value, i) =>
                html`<label class="check" key=${value}>
                  <input
                    type="checkbox"
                    id=${`${id}-${i}`}
                    checked=${chosen.includes(value)}
                    onChange=${(e) => onChange(toggled(chosen, value, e.currentTarget.checked))}
                  />
                  ${labelOf(value)}
                </label>`,
            )
      }
    </fieldset>
  </details>`;
}

export function UsageFilters({
  options,
  filters,
  onChange,
  metadataKeys,
  groupingKey,
  labelOfKey,
}) {
  const valueKey = groupingKey ?? filters.metadataKey;
  const set = (patch) => onChange({ ...filters, ...patch });
  const same = (v) => v;
  return html`<section class="filters" aria-labelledby="filters-title">
    <h3 id="filters-title" class="sr-only">Filters</h3>
    ${FILTERS.map(
      ({ param, label }) =>
        html`<${CheckList}
          key=${param}
          id=${`filter-${param}`}
          legend=${label}
          values=${options[param] ?? []}
          chosen=${filters[param]}
          labelOf=${param === 'apiKey' ? labelOfKey : same}
          onChange=${(list) => set({ [param]: list })}
        />`,
    )}
    <div class="filter metadata-filter">
      <label for="filter-metadata-key">Metadata key</label>
      <select
        id="filter-metadata-key"
        value=${valueKey || ''}
        disabled=${Boolean(groupingKey)}
        onChange=${(e) => set({ metadataKey: e.currentTarget.value, metadataValue: [] })}
      >
        <option value="">None</option>
        ${metadataKeys.map((k) => html`<option value=${k}>${k}</option>`)}
      </select>
    </div>
    ${
      valueKey
        ? html`<${CheckList}
            id="filter-metadata-value"
            legend=${`Values of ${valueKey}`}
            values=${(options.metadataValue ?? []).filter((v) => v !== 'unknown')}
            chosen=${valueKey === filters.metadataKey ? filters.metadataValue : []}
            labelOf=${same}
            onChange=${(list) => set({ metadataKey: valueKey, metadataValue: list })}
          />`
        : ''
    }
  </section>`;
}
