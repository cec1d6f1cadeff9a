// Usage alerts view: thresholds on credits or requests per UTC day or month (optionally for
// one product or one metadata value), each delivered once per crossing by a signed webhook,
// and the crossings recorded so far. Owners and admins only: the API answers 403 otherwise.
import { html, useEffect, useState } from './vendor/preact-htm.js';
import { describeError, getJson, send } from './api.js';
import { formatTimestamp } from './format.js';
import { MANAGER_ROLES } from './keys-view.js';

const PRODUCTS = ['classify', 'parse', 'extract', 'split', 'edit', 'pipeline', 'upload'];
const EMPTY_FORM = {
  measure: 'credits',
  period: 'day',
  threshold: '',
  product: '',
  metadataKey: '',
  metadataValue: '',
  webhookUrl: '',
  name: '',
};

function scopeOf(a) {
  const parts = [];
  if (a.product) parts.push(`product ${a.product}`);
  if (a.metadataKey) parts.push(`${a.metadataKey} = ${a.metadataValue}`);
  return parts.length ? parts.join(', ') : 'all usage';
}

export function AlertsView({ org, metadataKeys }) {
  const canManage = MANAGER_ROLES.includes(org.role);
  const base = `/api/v1/orgs/${encodeURIComponent(org.orgId)}`;
  const [alerts, setAlerts] = useState(null);
  const [fired, setFired] = useState(null);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [form, setForm] = useState(EMPTY_FORM);
  const reload = () =>
    Promise.all([getJson(`${base}/alerts`), getJson(`${base}/fired-alerts`)]).then(
      ([a, f]) => {
        setAlerts(a.data);
        setFired(f.data);
      },
      (e) => setError(describeError(e)),
    );
  useEffect(() => {
    setAlerts(null);
    setFired(null);
    setError('');
    if (canManage) reload();
  }, [base, canManage]);
  const field = (name) => (e) => setForm({ ...form, [name]: e.currentTarget.value });
  const act = async (work, done) => {
    setError('');
    setMessage('');
    try {
      await work();
      setMessage(done);
      await reload();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const create = () => {
    const body = {
      measure: form.measure,
      period: form.period,
      threshold: form.threshold.trim(),
      webhookUrl: form.webhookUrl.trim(),
    };
    if (form.name.trim()) body.name = form.name.trim();
    if (form.product) body.product = form.product;
    if (form.metadataKey) {
      body.metadataKey = form.metadataKey;
      body.metadataValue = form.metadataValue;
    }
    return act(async () => {
      await send('POST', `${base}/alerts`, body);
      setForm(EMPTY_FORM);
    }, 'Alert created.');
  };
  const remove = (a) =>
    act(
      () => send('DELETE', `${base}/alerts/${encodeURIComponent(a.alertId)}`),
      `Alert ${a.name} deleted.`,
    );

  if (!canManage) {
    return html`<section class="view" aria-labelledby="view-title">
      <h2 id="view-title" tabindex="-1">Alerts</h2>
      <p class="muted">Only owners and admins of this organization see and manage usage alerts.</p>
    </section>`;
  }
  return html`<section
    class="view"
    aria-labelledby="view-title"
    aria-busy=${alerts === null && !error}
  >
    <h2 id="view-title" tabindex="-1">Alerts</h2>
    <p class="muted">
      A signed webhook (the organization's webhook secret, as for async jobs) once per UTC day or
      month whose total reaches the threshold.
    </p>
    ${error ? html`<p class="state error" role="alert" id="alerts-error">${error}</p>` : ''}
    <p class="muted" role="status">${message}</p>
    <form
      class="inline-form"
      id="alert-form"
      onSubmit=${(e) => {
        e.preventDefault();
        create();
      }}
    >
      <label for="alert-measure">Measure</label>
      <select id="alert-measure" value=${form.measure} onChange=${field('measure')}>
        <option value="credits">Credits</option>
        <option value="requests">Requests</option>
      </select>
      <label for="alert-period">Per</label>
      <select id="alert-period" value=${form.period} onChange=${field('period')}>
        <option value="day">Day (UTC)</option>
        <option value="month">Month (UTC)</option>
      </select>
      <label for="alert-threshold">Threshold</label>
      <input
        id="alert-threshold"
        required
        inputmode="decimal"
        value=${form.threshold}
        placeholder="e.g. 1000"
        onInput=${field('threshold')}
      />
      <label for="alert-product">Product</label>
      <select id="alert-product" value=${form.product} onChange=${field('product')}>
        <option value="">All products</option>
        ${PRODUCTS.map((p) => html`<option value=${p}>${p}</option>`)}
      </select>
      <label for="alert-metadata-key">Metadata key</label>
      <select id="alert-metadata-key" value=${form.metadataKey} onChange=${field('metadataKey')}>
        <option value="">None</option>
        ${metadataKeys.map((k) => html`<option value=${k}>${k}</option>`)}
      </select>
      ${
        form.metadataKey
          ? html`<label for="alert-metadata-value">Value</label>
              <input
                id="alert-metadata-value"
                required
                value=${form.metadataValue}
                onInput=${field('metadataValue')}
              />`
          : ''
      }
      <label for="alert-webhook">Webhook URL</label>
      <input
        id="alert-webhook"
        type="url"
        required
        maxlength="2048"
        value=${form.webhookUrl}
        placeholder="https://example.com/hooks/usage"
        onInput=${field('webhookUrl')}
      />
      <label for="alert-name">Name</label>
      <input id="alert-name" maxlength="100" value=${form.name} onInput=${field('name')} />
      <button type="submit" class="primary">Create alert</button>
    </form>
    ${
      alerts === null
        ? html`<p class="muted">Loading alerts…</p>`
        : alerts.length === 0
          ? html`<p class="state empty">No usage alerts yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Usage alerts">
              <table id="usage-alerts">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Rule</th>
                    <th scope="col">Scope</th>
                    <th scope="col">Webhook</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${alerts.map(
                    (a) =>
                      html`<tr key=${a.alertId} data-alert-id=${a.alertId}>
                        <th scope="row">${a.name}</th>
                        <td>${a.measure} per ${a.period} ≥ ${a.threshold}</td>
                        <td>${scopeOf(a)}</td>
                        <td class="mono">${a.webhookUrl}</td>
                        <td>
                          <button
                            type="button"
                            aria-label=${`Delete ${a.name}`}
                            onClick=${() => remove(a)}
                          >
                            Delete
                          </button>
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
    <h3>Fired alerts</h3>
    ${
      fired === null
        ? ''
        : fired.length === 0
          ? html`<p class="state empty">No alert has fired yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Fired alerts">
              <table id="fired-alerts">
                <thead>
                  <tr>
                    <th scope="col">Fired</th>
                    <th scope="col">Alert</th>
                    <th scope="col">Period</th>
                    <th scope="col" class="num">Total</th>
                  </tr>
                </thead>
                <tbody>
                  ${fired.map(
                    (f) =>
                      html`<tr key=${f.firingId} data-firing-id=${f.firingId}>
                        <td>${formatTimestamp(f.firedAt)}</td>
                        <th scope="row">${f.payload.name ?? f.alertId}</th>
                        <td>
                          ${
                            f.periodStart === f.periodEnd
                              ? f.periodStart
                              : `${f.periodStart} – ${f.periodEnd}`
                          }
                        </td>
                        <td class="num">${f.total}</td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
  </section>`;
}
