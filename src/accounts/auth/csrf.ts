/**
 * Request-level CSRF rules for cookie-authenticated dashboard calls. The cookie is
 * `SameSite=Strict`; on top of it a state-changing request must come from this origin
 * (Origin and Fetch Metadata headers, when the browser sends them) and carry the session's
 * token in a custom header, which a cross-site form or a simple request cannot set.
 */
export const SAFE_METHODS: ReadonlySet<string> = new Set(['GET', 'HEAD', 'OPTIONS']);

interface RequestOriginFacts {
  method: string;
  /** The Origin header, if any. */
  origin: string | undefined;
  /** The Sec-Fetch-Site header, if any. */
  fetchSite: string | undefined;
  /** The origins this server answers as: its public base URL and the request's own host. */
  ownOrigins: readonly string[];
}

/** Why a request is refused as cross-site, or null when it may proceed. */
export function crossSiteRefusal(facts: RequestOriginFacts): string | null {
  if (SAFE_METHODS.has(facts.method.toUpperCase())) return null;
  if (facts.fetchSite !== undefined && !['same-origin', 'none'].includes(facts.fetchSite)) {
    return `a ${facts.fetchSite} request cannot change anything with the dashboard session`;
  }
  if (facts.origin !== undefined && !facts.ownOrigins.includes(facts.origin)) {
    return `requests from origin ${facts.origin} cannot use the dashboard session`;
  }
  return null;
}

export function originOf(url: string): string | null {
  try {
    return new URL(url).origin;
  } catch {
    return null;
  }
}
