// Metadata keys view: the async-metadata keys seen in this organization's usage, which are
// enabled for grouping, why a key was refused (values that look like identifiers), and how
// many of the organization's places for keys are held (METADATA_KEYS_MAX_PER_ORG).
import { html, useEffect, useLayoutEffect, useRef, useState } from './vendor/preact-htm.js';
import { ApiFailure, describeError, send } from './api.js';
import { formatCount, formatTimestamp } from './format.js';
import { MANAGER_ROLES } from './keys-view.js';

function statusOf(k) {
  if (k.trackingDeletedAt) {
    return html`Tracking deleted ${formatTimestamp(k.trackingDeletedAt)}.<br />
      <span class="muted">Usage is not broken out by it again; it holds no place.</span>`;
  }
  // A key enabled before ingestion refused it stays enabled; "Refused" alone would hide that,
  // and "Enabled" alone would promise grouping the export refuses.
  if (k.enabled && k.rejectedReason) {
    return html`Still enabled, but refused: ${k.rejectedReason}.<br />
      <span class="muted">Usage is not grouped or filtered by it.</span>`;
  }
  if (k.rejectedReason) return `Refused: ${k.rejectedReason}`;
  return k.enabled ? `Enabled ${formatTimestamp(k.enabledAt)}` : 'Not enabled';
}

/**
 * What to say when enabling `key` failed: a refusal for the limit on keys says what it means
 * for the tenant (its jobs keep the key, usage is not grouped by it) and what to do.
 */
function enableFailure(error, key) {
  if (!(error instanceof ApiFailure) || error.code !== 'METADATA_KEY_LIMIT') {
    return describeError(error);
  }
  const limit = error.details.maxKeys;
  return (
    `${key} cannot be enabled: usage of this organization is already broken out by ` +
    `${limit} metadata keys, its limit. Jobs keep ${key} in their ` +
    'metadata and webhooks, but usage is not grouped or filtered by it. A key keeps its ' +
    'place once seen: delete the tracking of a key you do not need (below) to free its ' +
    "place, or ask the service's operator to raise the limit."
  );
}

/** "3 of 100 metadata keys held", with what reaching the limit means. */
function Places({ held }) {
  if (held === null) return '';
  const full = held.keysHeld >= held.maxKeys;
  return html`<p id="metadata-key-places" class=${full ? 'state notice' : 'muted'}>
    <strong>${formatCount(held.keysHeld)} of ${formatCount(held.maxKeys)}</strong> metadata keys
    held.
    ${
      full
        ? ' At the limit: new keys stay in jobs and webhooks, but usage is not broken out by ' +
          "them. Deleting a key's tracking frees its place."
        : ' Each key seen in usage or enabled holds a place.'
    }
  </p>`;
}

/**
 * The question before an action that cannot be undone, with the confirming button and
 * *Cancel* side by side (as revoking an API key asks). While it asks, it is all the row's
 * actions show, and keyboard focus starts on *Cancel*: Enter or Space then keeps the key.
 * Focus moves as the confirmation is drawn (a layout effect), not a frame later.
 */
function Confirmation({ question, confirmLabel, confirmAria, onConfirm, onCancel }) {
  const cancel = useRef(null);
  useLayoutEffect(() => cancel.current?.focus(), []);
  return html`<div class="asking" role="group" aria-label=${question}>
    <p>${question}</p>
    <span class="confirm">
      <button type="button" class="danger" aria-label=${confirmAria} onClick=${onConfirm}>
        ${confirmLabel}
      </button>
      <button type="button" ref=${cancel} onClick=${onCancel}>Cancel</button>
    </span>
  </div>`;
}

/**
 * What each action that asks first says. Disabling a key ingestion has refused as
 * identifier-like is for good: the service checks the stored refusal before anything else
 * when enabling (METADATA_KEY_REJECTED) and no write clears it; nothing else is lost (the
 * export already refuses the key, and it keeps its place under the limit on keys). Deleting a
 * key's tracking drops its usage rollups and frees its place; usage is never broken out by it
 * again (its earlier events could not be counted back).
 */
const QUESTIONS = {
  disableRefused: (key) => ({
    label: 'Disable',
    ariaLabel: `Disable ${key}`,
    question: `${key} was refused: once disabled, it cannot be enabled again.`,
    confirmLabel: 'Disable for good',
    confirmAria: `Confirm disabling ${key}`,
  }),
  deleteTracking: (key) => ({
    label: 'Delete tracking',
    ariaLabel: `Delete tracking of ${key}`,
    question: `Delete ${key}'s usage figures and free its place? Usage is never broken out by it again; jobs keep it.`,
    confirmLabel: 'Delete for good',
    confirmAria: `Confirm deleting tracking of ${key}`,
  }),
};

/**
 * The actions a manager has on a listed key. Enable is offered exactly where the listing says
 * the API accepts it (`canEnable`, the service's one rule); otherwise the refusal is shown. An
 * enabled key can be disabled, after a confirmation when it was refused; a key usage is broken
 * out by can have its tracking deleted, to free its place. Cancelling a confirmation gives
 * keyboard focus back to the button that asked.
 */
function KeyAction({ k, enable, disable, deleteTracking }) {
  const [asking, setAsking] = useState(null);
  const actionsRef = useRef(null);
  const askedBy = useRef(null);
  useLayoutEffect(() => {
    if (asking !== null || askedBy.current === null) return;
    actionsRef.current?.querySelector(`button[data-asks="${askedBy.current}"]`)?.focus();
    askedBy.current = null;
  }, [asking]);
  const run = { disableRefused: () => disable(k.key), deleteTracking: () => deleteTracking(k.key) };
  if (asking !== null) {
    const { question, confirmLabel, confirmAria } = QUESTIONS[asking](k.key);
    return html`<${Confirmation}
      question=${question}
      confirmLabel=${confirmLabel}
      confirmAria=${confirmAria}
      onConfirm=${() => {
        askedBy.current = null;
        setAsking(null);
        run[asking]();
      }}
      onCancel=${() => {
        askedBy.current = asking;
        setAsking(null);
      }}
    />`;
  }
  const asker = (kind) => {
    const { label, ariaLabel } = QUESTIONS[kind](k.key);
    return html`<button
      type="button"
      data-asks=${kind}
      aria-label=${ariaLabel}
      onClick=${() => setAsking(kind)}
    >
      ${label}
    </button>`;
  };
  const actions = [];
  if (k.enabled && k.rejectedReason && !k.trackingDeletedAt) {
    actions.push(asker('disableRefused'));
  } else if (k.enabled) {
    actions.push(
      html`<button type="button" aria-label=${`Disable ${k.key}`} onClick=${() => disable(k.key)}>
        Disable
      </button>`,
    );
  } else if (k.canEnable) {
    actions.push(
      html`<button type="button" aria-label=${`Enable ${k.key}`} onClick=${() => enable(k.key)}>
        Enable
      </button>`,
    );
  } else {
    actions.push(
      html`<span class="muted" title=${k.enableRefusal?.message ?? ''}>Cannot be enabled</span>`,
    );
  }
  if (k.eventCount > 0 && !k.trackingDeletedAt) actions.push(asker('deleteTracking'));
  return html`<span class="actions" ref=${actionsRef}>${actions}</span>`;
}

/**
 * `loadKeys` fetches the organization's listing through the dashboard's one holder of it, so
 * what the usage view and the alert form offer follows every load of this table.
 */
export function MetadataKeysView({ org, loadKeys }) {
  const [keys, setKeys] = useState(null);
  const [held, setHeld] = useState(null);
  const [error, setError] = useState('');
  const [message, setMessage] = useState('');
  const [name, setName] = useState('');
  const canManage = MANAGER_ROLES.includes(org.role);
  const path = `/api/v1/orgs/${encodeURIComponent(org.orgId)}/metadata-keys`;
  const reload = () =>
    loadKeys().then(
      (body) => {
        setKeys(body.data);
        setHeld({ keysHeld: body.keysHeld, maxKeys: body.maxKeys });
      },
      (e) => setError(describeError(e)),
    );
  useEffect(() => {
    setKeys(null);
    setHeld(null);
    reload();
  }, [loadKeys]);
  const act = async (work, done, failure = describeError) => {
    setError('');
    setMessage('');
    try {
      await work();
      setMessage(done);
      await reload();
    } catch (e) {
      setError(failure(e));
    }
  };
  const enable = (key) =>
    act(
      () => send('POST', path, { key }),
      `Metadata key ${key} enabled.`,
      (e) => enableFailure(e, key),
    );
  const disable = (key) =>
    act(
      () => send('DELETE', `${path}/${encodeURIComponent(key)}`),
      `Metadata key ${key} disabled.`,
    );
  const deleteTracking = (key) =>
    act(
      () => send('DELETE', `${path}/${encodeURIComponent(key)}/tracking`),
      `Tracking of metadata key ${key} deleted: its place is free.`,
    );

  return html`<section
    class="view"
    aria-labelledby="view-title"
    aria-busy=${keys === null && !error}
  >
    <h2 id="view-title" tabindex="-1">Metadata keys</h2>
    <p class="muted">
      Keys of <code>async.metadata</code> that usage can be grouped and filtered by. A key whose
      values look like per-request identifiers (a document id, a signature) is refused: grouping
      needs few distinct values.
    </p>
    <${Places} held=${held} />
    ${error ? html`<p class="state error" role="alert" id="metadata-error">${error}</p>` : ''}
    <p class="muted" role="status">${message}</p>
    ${
      canManage
        ? html`<form
            class="inline-form"
            onSubmit=${(e) => {
              e.preventDefault();
              if (name.trim()) enable(name.trim());
            }}
          >
            <label for="metadata-key-name">Enable a key</label>
            <input
              id="metadata-key-name"
              value=${name}
              maxlength="256"
              placeholder="e.g. team"
              onInput=${(e) => setName(e.currentTarget.value)}
            />
            <button type="submit" class="primary">Enable</button>
          </form>`
        : html`<p class="muted">
            Only owners and admins of this organization enable or disable metadata keys.
          </p>`
    }
    ${
      keys === null
        ? html`<p class="muted">Loading metadata keys…</p>`
        : keys.length === 0
          ? html`<p class="state empty">
              No async metadata seen yet. Send <code>async.metadata</code> with async requests to
              group usage by it.
            </p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label="Metadata keys">
              <table id="metadata-keys">
                <thead>
                  <tr>
                    <th scope="col">Key</th>
                    <th scope="col" class="num">Events</th>
                    <th scope="col" class="num">Distinct values</th>
                    <th scope="col">Status</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (k) =>
                      html`<tr key=${k.key} data-metadata-key=${k.key}>
                        <th scope="row" class="mono">${k.key}</th>
                        <td class="num">${formatCount(k.eventCount)}</td>
                        <td class="num">${formatCount(k.distinctValues)}</td>
                        <td>${statusOf(k)}</td>
                        <td>
                          ${
                            canManage
                              ? html`<${KeyAction}
                                  k=${k}
                                  enable=${enable}
                                  disable=${disable}
                                  deleteTracking=${deleteTracking}
                                />`
                              : ''
                          }
                        </td>
                      </tr>`,
                  )}
                </tbody>
              </table>
            </div>`
    }
  </section>`;
}
