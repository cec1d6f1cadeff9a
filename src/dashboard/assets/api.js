// The page's only way to the server: same-origin fetches with the session cookie, the CSRF
// token on state-changing calls, and errors turned into something a view can show.

let csrfToken = null;
let unauthorizedHandler = () => {};

export class ApiFailure extends Error {
  /** `details`: the error envelope's other fields (e.g. the key and limit of a refusal). */
  constructor(status, code, message, details = {}) {
    super(message);
    this.status = status;
    this.code = code;
    this.details = details;
  }
}

/** The server could not be reached at all (down, restarting, network gone). */
export class Unreachable extends Error {
  constructor() {
    super('The docproc server cannot be reached. Check that it is running, then retry.');
  }
}

export function setCsrfToken(token) {
  csrfToken = token;
}

/** Called with the server's message whenever a call answers 401 (session over, key revoked). */
export function onUnauthorized(handler) {
  unauthorizedHandler = handler;
}

async function request(
  path,
  { method = 'GET', body, accept = 'application/json', endsSession = true } = {},
) {
  const headers = { accept };
  if (body !== undefined) headers['content-type'] = 'application/json';
  if (method !== 'GET' && csrfToken) headers['x-csrf-token'] = csrfToken;
  let response;
  try {
    response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      credentials: 'same-origin',
      cache: 'no-store',
    });
  } catch {
    throw new Unreachable();
  }
  if (response.ok) return response;
  let code = 'HTTP_' + response.status;
  let message = `The server answered ${response.status}`;
  let details = {};
  try {
    const envelope = await response.json();
    code = envelope.error?.code ?? code;
    message = envelope.error?.message ?? message;
    details = envelope.error ?? details;
  } catch {
    // not the JSON error envelope (e.g. a proxy's page): keep the generic message
  }
  if (response.status === 401 && endsSession) unauthorizedHandler(message);
  throw new ApiFailure(response.status, code, message, details);
}

export async function getJson(path) {
  return (await request(path)).json();
}

export async function send(method, path, body) {
  const response = await request(path, { method, body });
  return response.status === 204 ? null : response.json();
}

/**
 * Exchanges an account key for a session. A refused key is the sign-in form's own error to
 * show, not the end of a session.
 */
export async function signIn(key) {
  const response = await request('/dashboard/session', {
    method: 'POST',
    body: { key },
    endsSession: false,
  });
  return response.json();
}

/** The export as CSV, with the file name the server chose. */
export async function getCsv(path) {
  const response = await request(path, { accept: 'text/csv' });
  const disposition = response.headers.get('content-disposition') ?? '';
  const name = /filename="([^"]+)"/.exec(disposition)?.[1] ?? 'usage.csv';
  return { name, blob: await response.blob() };
}

export function describeError(error) {
  if (error instanceof ApiFailure || error instanceof Unreachable) return error.message;
  return 'Something went wrong in the page; reload it.';
}
