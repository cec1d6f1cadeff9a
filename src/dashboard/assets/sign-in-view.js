// Sign-in: an account API key is exchanged for an HTTP-only session cookie. The key lives
// only in this form's input until the answer arrives; it is never stored in the browser.
import { html, useEffect, useRef, useState } from './vendor/preact-htm.js';
import { describeError, signIn } from './api.js';

export function SignInView({ message, onSignedIn }) {
  const [key, setKey] = useState('');
  const [error, setError] = useState('');
  const [busy, setBusy] = useState(false);
  const input = useRef(null);
  useEffect(() => input.current?.focus(), []);
  const submit = async (event) => {
    event.preventDefault();
    setBusy(true);
    setError('');
    try {
      const session = await signIn(key.trim());
      setKey('');
      onSignedIn(session);
    } catch (e) {
      setError(describeError(e));
      setBusy(false);
    }
  };
  return html`<main id="main" class="sign-in">
    <h1>docproc dashboard</h1>
    ${message ? html`<p class="state notice" role="status" id="sign-in-message">${message}</p>` : ''}
    <form onSubmit=${submit} aria-describedby="sign-in-help">
      <label for="account-key">Account API key</label>
      <input
        id="account-key"
        ref=${input}
        type="password"
        autocomplete="off"
        spellcheck="false"
        required
        value=${key}
        placeholder="dpa_…"
        aria-invalid=${error ? 'true' : 'false'}
        aria-describedby=${error ? 'sign-in-error' : undefined}
        onInput=${(e) => setKey(e.currentTarget.value)}
      />
      <p id="sign-in-help" class="muted">
        Your personal key (<code>dpa_…</code>), from${' '}
        <code>docproc-admin account-key create</code> or the keys page. It is exchanged for a
        session cookie valid for 8 hours and is not kept in this browser.
      </p>
      ${error ? html`<p class="state error" role="alert" id="sign-in-error">${error}</p>` : ''}
      <button type="submit" class="primary" disabled=${busy}>
        ${busy ? 'Signing in…' : 'Sign in'}
      </button>
    </form>
  </main>`;
}
