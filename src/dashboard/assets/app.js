// The dashboard shell: session, organization switcher, navigation between the views.
import { html, render, useCallback, useEffect, useState } from './vendor/preact-htm.js';
import { describeError, getJson, onUnauthorized, send, setCsrfToken, Unreachable } from './api.js';
import { AlertsView } from './alerts-view.js';
import { KeysView } from './keys-view.js';
import { MetadataKeysView } from './metadata-keys-view.js';
import { useMetadataKeys, useRefreshOnView } from './org-metadata-keys.js';
import { SignInView } from './sign-in-view.js';
import { UsageView } from './usage-view.js';

const VIEWS = [
  { id: 'usage', label: 'Usage' },
  { id: 'keys', label: 'API keys' },
  { id: 'metadata', label: 'Metadata keys' },
  { id: 'alerts', label: 'Alerts' },
];

function viewFromHash() {
  const id = location.hash.replace(/^#/, '');
  return VIEWS.some((v) => v.id === id) ? id : 'usage';
}

/** Names of the organization's processing keys, to label usage by key. */
function useKeyNames(orgId) {
  const [keyNames, setKeyNames] = useState(new Map());
  useEffect(() => {
    if (!orgId) return;
    // A member who may not list keys still sees usage, by key id only.
    getJson(`/api/v1/orgs/${encodeURIComponent(orgId)}/processing-keys`).then(
      (body) => setKeyNames(new Map(body.data.filter((k) => k.name).map((k) => [k.keyId, k.name]))),
      () => setKeyNames(new Map()),
    );
  }, [orgId]);
  return keyNames;
}

// Views that offer metadata keys to choose from; the Metadata keys view loads the listing itself.
const VIEWS_OFFERING_METADATA_KEYS = ['usage', 'alerts'];

function Dashboard({ session, onSignOut }) {
  const [orgs, setOrgs] = useState(null);
  const [error, setError] = useState('');
  const [orgId, setOrgId] = useState(null);
  const [view, setView] = useState(viewFromHash);
  const keyNames = useKeyNames(orgId);
  const metadataKeys = useMetadataKeys(orgId);
  useRefreshOnView(view, VIEWS_OFFERING_METADATA_KEYS, metadataKeys.load);
  const loadOrgs = () => {
    setError('');
    getJson('/api/v1/orgs').then(
      (body) => {
        setOrgs(body.data);
        const preferred = body.data.find((o) => o.orgId === session.defaultOrgId) ?? body.data[0];
        setOrgId((current) => current ?? preferred?.orgId ?? null);
      },
      (e) => setError(describeError(e)),
    );
  };
  useEffect(loadOrgs, []);
  useEffect(() => {
    const follow = () => setView(viewFromHash());
    window.addEventListener('hashchange', follow);
    return () => window.removeEventListener('hashchange', follow);
  }, []);
  useEffect(() => document.getElementById('view-title')?.focus(), [view]);
  const labelOfKey = useCallback(
    (id) => (keyNames.has(id) ? `${keyNames.get(id)} (${id})` : id),
    [keyNames],
  );
  const org = orgs?.find((o) => o.orgId === orgId);

  return html`<div class="shell">
    <a class="skip" href="#main">Skip to content</a>
    <header class="top">
      <p class="brand">docproc</p>
      <nav aria-label="Dashboard views">
        <ul>
          ${VIEWS.map(
            (v) =>
              html`<li>
                <a href=${`#${v.id}`} aria-current=${view === v.id ? 'page' : undefined}
                  >${v.label}</a
                >
              </li>`,
          )}
        </ul>
      </nav>
      <div class="org">
        ${
          orgs && orgs.length > 1
            ? html`<label for="org-switcher">Organization</label>
                <select
                  id="org-switcher"
                  value=${orgId}
                  onChange=${(e) => setOrgId(e.currentTarget.value)}
                >
                  ${orgs.map((o) => html`<option value=${o.orgId}>${o.name}</option>`)}
                </select>`
            : org
              ? html`<span class="org-name">${org.name}</span>`
              : ''
        }
        ${org ? html`<span class="badge" title="Your role in this organization">${org.role}</span>` : ''}
      </div>
      <button type="button" id="sign-out" onClick=${onSignOut}>Sign out</button>
    </header>
    <main id="main">
      ${
        error
          ? html`<div class="state error" role="alert">
              <p>${error}</p>
              <button type="button" onClick=${loadOrgs}>Retry</button>
            </div>`
          : !orgs
            ? html`<p class="muted">Loading…</p>`
            : !org
              ? html`<div class="state empty">
                  <p>
                    Your account is not a member of any organization yet. An owner can add you with
                    <code>docproc-admin member add</code>.
                  </p>
                </div>`
              : view === 'keys'
                ? html`<${KeysView} org=${org} session=${session} />`
                : view === 'metadata'
                  ? html`<${MetadataKeysView} org=${org} loadKeys=${metadataKeys.load} />`
                  : view === 'alerts'
                    ? html`<${AlertsView} org=${org} metadataKeys=${metadataKeys.usableKeys} />`
                    : html`<${UsageView}
                        orgId=${org.orgId}
                        metadataKeys=${metadataKeys.usableKeys}
                        labelOfKey=${labelOfKey}
                      />`
      }
    </main>
  </div>`;
}

function App() {
  const [session, setSession] = useState(undefined);
  const [message, setMessage] = useState('');
  const [unreachable, setUnreachable] = useState(false);
  const signedOut = (text) => {
    setCsrfToken(null);
    setMessage(text);
    setSession(null);
  };
  const resume = () => {
    setUnreachable(false);
    getJson('/dashboard/session').then(
      (body) => {
        if (!body.signedIn) return signedOut(body.message ?? '');
        setCsrfToken(body.csrfToken);
        setSession(body);
      },
      (e) => (e instanceof Unreachable ? setUnreachable(true) : signedOut(describeError(e))),
    );
  };
  useEffect(() => {
    onUnauthorized((text) => signedOut(`${text}.`.replace(/\.\.$/, '.')));
    resume();
  }, []);
  const signOut = async () => {
    try {
      await send('DELETE', '/dashboard/session');
      signedOut('You are signed out.');
    } catch (e) {
      if (e instanceof Unreachable) setUnreachable(true);
      else signedOut(describeError(e));
    }
  };

  if (unreachable) {
    return html`<main id="main" class="sign-in">
      <h1>docproc dashboard</h1>
      <div class="state error" role="alert">
        <p>The docproc server cannot be reached. Check that it is running, then retry.</p>
        <button type="button" class="primary" onClick=${resume}>Retry</button>
      </div>
    </main>`;
  }
  if (session === undefined) return html`<main id="main"><p class="muted">Loading…</p></main>`;
  if (session === null) {
    return html`<${SignInView} message=${message} onSignedIn=${() => resume()} />`;
  }
  return html`<${Dashboard} session=${session} onSignOut=${signOut} />`;
}

const root = document.getElementById('app');
root.replaceChildren();
render(html`<${App} />`, root);
