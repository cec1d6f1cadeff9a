// The one place that holds an organization's metadata keys for the dashboard. Keys change while
// the page is open (a manager enables or disables one, ingestion refuses one), so the listing
// is fetched again whenever a view that shows or offers keys is shown, and the Metadata keys
// view loads its table through it: every choice of a key then reflects the latest listing.
import { useCallback, useEffect, useMemo, useRef, useState } from './vendor/preact-htm.js';
import { getJson } from './api.js';

/**
 * `load()` fetches GET …/metadata-keys for `orgId` again and resolves to its answer.
 * `usableKeys` are the keys of the last answer that the export accepts: one enabled before
 * ingestion refused it stays enabled, yet grouping, filtering or alerting on it is answered
 * with METADATA_KEY_REJECTED. A failed load offers none (a member who may not list keys).
 */
export function useMetadataKeys(orgId) {
  const [listing, setListing] = useState(null);
  // An answer for an organization no longer shown must not replace the current one.
  const currentPath = useRef(null);
  const path = orgId ? `/api/v1/orgs/${encodeURIComponent(orgId)}/metadata-keys` : null;
  currentPath.current = path;
  useEffect(() => {
    setListing(null);
  }, [path]);
  const load = useCallback(() => {
    if (!path) return Promise.resolve(null);
    return getJson(path).then(
      (body) => {
        if (currentPath.current === path) setListing(body);
        return body;
      },
      (error) => {
        if (currentPath.current === path) setListing(null);
        throw error;
      },
    );
  }, [path]);
  const usableKeys = useMemo(
    () => (listing?.data ?? []).filter((k) => k.enabled && !k.rejectedAt).map((k) => k.key),
    [listing],
  );
  return { usableKeys, load };
}

/**
 * Fetches the listing again each time `view` becomes one of `views` (or the organization
 * changes while it is shown): one request per switch.
 */
export function useRefreshOnView(view, views, load) {
  const shown = views.includes(view);
  useEffect(() => {
    if (shown) load().catch(() => {});
  }, [view, shown, load]);
}
