/**
 * Where a request carries `document_password`, and how it is kept apart from the stored
 * request: the job row holds it in a column of its own that ends with the job (cleared by
 * the statement that records the job's end), so the request as stored, listed
 * (`raw_config`) or kept after the job holds no password.
 * See docs/decisions/0326-document-password-opens-pdfs-and-ends-with-its-job.md.
 */
type Body = Record<string, unknown>;

/** Parse and pipeline runs: `settings`; extract and split: `parsing.settings`. */
const SETTINGS_PATHS: readonly (readonly string[])[] = [['settings'], ['parsing', 'settings']];

function isObject(value: unknown): value is Body {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function settingsAt(request: Body, path: readonly string[]): Body | undefined {
  let node: unknown = request;
  for (const key of path) node = isObject(node) ? node[key] : undefined;
  return isObject(node) ? node : undefined;
}

/**
 * A copy of `request` along `path` (objects missing on the way are made), so the caller's
 * object is never changed.
 */
function copiedAlong(request: Body, path: readonly string[]): { copy: Body; settings: Body } {
  const copy: Body = { ...request };
  let parent = copy;
  for (const key of path) {
    const child: Body = { ...(parent[key] as Body) };
    parent[key] = child;
    parent = child;
  }
  return { copy, settings: parent };
}

/**
 * The request without its password, and the password with where it was: for the job row
 * (`null` when the request carries none).
 */
export function detachDocumentPassword(request: Body): { request: Body; secret: string | null } {
  for (const path of SETTINGS_PATHS) {
    const password = settingsAt(request, path)?.document_password;
    if (typeof password !== 'string' || password === '') continue;
    const { copy, settings } = copiedAlong(request, path);
    delete settings.document_password;
    return { request: copy, secret: JSON.stringify({ path, password }) };
  }
  return { request, secret: null };
}

/** The stored request with its password back where it was sent (a job still running). */
export function attachDocumentPassword(request: Body, secret: string | null): Body {
  if (secret === null) return request;
  const { path, password } = JSON.parse(secret) as { path: string[]; password: string };
  const { copy, settings } = copiedAlong(request, path);
  settings.document_password = password;
  return copy;
}

/** The request as shown back to its organization (`raw_config`): never with a password. */
export function withoutDocumentPassword(request: Body): Body {
  return detachDocumentPassword(request).request;
}
