// Keys view: the organization's processing keys and the signed-in user's own account keys.
// A new key's secret is shown once, with a copy button; revoking asks for a confirmation.
import { html, useEffect, useState } from './vendor/preact-htm.js';
import { describeError, getJson, send } from './api.js';
import { formatTimestamp } from './format.js';

export const MANAGER_ROLES = ['owner', 'admin'];

function NewSecret({ created, onDone }) {
  const [copied, setCopied] = useState('');
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.secret);
      setCopied('Copied to the clipboard.');
    } catch {
      setCopied('Copying is not allowed here: select the key and copy it by hand.');
    }
  };
  return html`<div class="secret" role="status">
    <p>
      <strong>Key ${created.keyId} created.</strong> Copy its secret now: it is not shown again.
    </p>
    <div class="secret-row">
      <label for="new-secret" class="sr-only">Secret of ${created.keyId}</label>
      <input
        id="new-secret"
        class="mono"
        readonly
        value=${created.secret}
        onFocus=${(e) => e.currentTarget.select()}
      />
      <button type="button" id="copy-secret" onClick=${copy}>Copy</button>
      <button type="button" onClick=${onDone}>Done</button>
    </div>
    <p class="muted" aria-live="polite">${copied}</p>
  </div>`;
}

function RevokeButton({ label, onRevoke }) {
  const [confirming, setConfirming] = useState(false);
  if (!confirming) {
    return html`<button
      type="button"
      class="danger"
      aria-label=${`Revoke ${label}`}
      onClick=${() => setConfirming(true)}
    >
      Revoke
    </button>`;
  }
  return html`<span class="confirm">
    <button
      type="button"
      class="danger"
      aria-label=${`Confirm revoking ${label}`}
      onClick=${onRevoke}
    >
      Confirm revoke
    </button>
    <button type="button" onClick=${() => setConfirming(false)}>Cancel</button>
  </span>`;
}

/** A list of keys with create and revoke, for either kind. */
function KeySection({
  id,
  title,
  intro,
  listPath,
  createPath,
  createBody,
  canManage,
  readOnlyNote,
  currentKeyId,
}) {
  const [keys, setKeys] = useState(null);
  const [error, setError] = useState('');
  const [name, setName] = useState('');
  const [created, setCreated] = useState(null);
  const reload = () =>
    getJson(listPath).then(
      (body) => {
        setKeys(body.data);
        setError('');
      },
      (e) => setError(describeError(e)),
    );
  useEffect(() => {
    setKeys(null);
    setCreated(null);
    reload();
  }, [listPath]);
  const create = async (event) => {
    event.preventDefault();
    try {
      setCreated(await send('POST', createPath, createBody(name.trim())));
      setName('');
      await reload();
    } catch (e) {
      setError(describeError(e));
    }
  };
  const revoke = async (keyId) => {
    try {
      await send('DELETE', `${createPath}/${keyId}`);
      await reload();
    } catch (e) {
      setError(describeError(e));
    }
  };
  return html`<section
    class="panel"
    id=${id}
    aria-labelledby=${`${id}-title`}
    aria-busy=${keys === null && !error}
  >
    <h3 id=${`${id}-title`}>${title}</h3>
    <p class="muted">${intro}</p>
    ${error ? html`<p class="state error" role="alert">${error}</p>` : ''}
    ${created ? html`<${NewSecret} created=${created} onDone=${() => setCreated(null)} />` : ''}
    ${
      canManage
        ? html`<form class="inline-form" onSubmit=${create}>
            <label for=${`${id}-name`}>Name of the new key</label>
            <input
              id=${`${id}-name`}
              value=${name}
              maxlength="100"
              placeholder="e.g. ci-prod"
              onInput=${(e) => setName(e.currentTarget.value)}
            />
            <button type="submit" class="primary">Create key</button>
          </form>`
        : html`<p class="muted">${readOnlyNote}</p>`
    }
    ${
      keys === null
        ? html`<p class="muted">Loading keys…</p>`
        : keys.length === 0
          ? html`<p class="state empty">No keys yet.</p>`
          : html`<div class="table-wrap" tabindex="0" role="region" aria-label=${title}>
              <table class="keys">
                <thead>
                  <tr>
                    <th scope="col">Name</th>
                    <th scope="col">Key id</th>
                    <th scope="col">Created</th>
                    <th scope="col">Status</th>
                    <th scope="col"><span class="sr-only">Actions</span></th>
                  </tr>
                </thead>
                <tbody>
                  ${keys.map(
                    (k) =>
                      html`<tr key=${k.keyId} data-key-id=${k.keyId}>
                        <td>${k.name ?? html`<span class="muted">unnamed</span>`}</td>
                        <td class="mono">
                          ${k.keyId}${k.keyId === currentKeyId ? html` <span class="badge">this session</span>` : ''}
                        </td>
                        <td>${formatTimestamp(k.createdAt)}</td>
                        <td>
                          ${k.revokedAt ? `Revoked ${formatTimestamp(k.revokedAt)}` : 'Active'}
                        </td>
                        <td>
                          ${
                            canManage && !k.revokedAt
                              ? html`<${RevokeButton}
                                  label=${k.name ?? k.keyId}
                                  onRevoke=${() => revoke(k.keyId)}
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

export function KeysView({ org, session }) {
  const canManage = MANAGER_ROLES.includes(org.role);
  const orgPath = `/api/v1/orgs/${encodeURIComponent(org.orgId)}/processing-keys`;
  return html`<section class="view" aria-labelledby="view-title">
    <h2 id="view-title" tabindex="-1">API keys</h2>
    <${KeySection}
      id="processing-keys"
      title=${`Processing keys of ${org.name}`}
      intro="Processing keys authenticate document requests (classify, parse, extract, split, edit) and are billed to this organization."
      listPath=${orgPath}
      createPath=${orgPath}
      createBody=${(name) => (name ? { name } : {})}
      canManage=${canManage}
      readOnlyNote="Only owners and admins of this organization create and revoke processing keys."
    />
    <${KeySection}
      id="account-keys"
      title="Your account keys"
      intro="Personal keys for the dashboard API and usage export. Revoking the key of this session signs you out."
      listPath="/api/v1/account-keys"
      createPath="/api/v1/account-keys"
      createBody=${(name) => ({ ...(name ? { name } : {}), defaultOrgId: org.orgId })}
      canManage=${true}
      currentKeyId=${session.keyId}
    />
  </section>`;
}
