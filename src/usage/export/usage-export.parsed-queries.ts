import { KeyedExportQuery } from './usage-export.cache.js';
import {
  parseUsageExportQuery,
  readsToday,
  USAGE_EXPORT_PARAMETERS,
  type RawQuery,
} from './usage-export.query.js';

const PARAMETER_NAMES = new Set(USAGE_EXPORT_PARAMETERS.map((parameter) => parameter.name));
/** Export URLs remembered; the oldest goes first. A dashboard repeats a few dozen. */
const REMEMBERED_URLS = 1_000;

/**
 * Export queries as `parseUsageExportQuery` parsed them, by the request's URL (path and
 * query string, as received): a repeated export then skips the parse and the building of
 * its cache key, most of what its early answer spent of its own
 * (docs/decisions/0480-cached-export-answers-reuse-their-parsed-query.md).
 *
 * Exact because the parse is a function of the query string alone, except that a missing
 * `endDate` defaults from today: such a query is parsed again on every request. Only the
 * query is kept; who asks, for which org, and whether the answer is cached at the org's
 * current watermark are decided on every request, as before.
 */
export class ParsedExportQueries {
  private readonly byUrl = new Map<string, KeyedExportQuery>();

  /**
   * The export query of `url`, whose query string Fastify parsed into `raw`; undefined when
   * it names a parameter the export does not declare. Throws what the parser throws (a
   * refused parameter), remembering nothing.
   */
  of(url: string, raw: RawQuery): KeyedExportQuery | undefined {
    const known = this.byUrl.get(url);
    if (known !== undefined) return known;
    for (const name of Object.keys(raw)) if (!PARAMETER_NAMES.has(name)) return undefined;
    const keyed = new KeyedExportQuery(parseUsageExportQuery(raw));
    if (!readsToday(raw)) {
      if (this.byUrl.size >= REMEMBERED_URLS) {
        this.byUrl.delete(this.byUrl.keys().next().value as string);
      }
      this.byUrl.set(url, keyed);
    }
    return keyed;
  }
}
