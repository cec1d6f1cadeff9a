import { isPlainObject } from '../requests/request-validation.js';

/**
 * Whether a stored request asked for its result as a URL (`force_url_result`), where the
 * reductoai SDK puts the flag: classify at the top level, parse under `settings`, extract
 * and split under `parsing.settings`.
 */
export function forcesUrlResult(request: Record<string, unknown>): boolean {
  if (request.force_url_result === true) return true;
  const settings = isPlainObject(request.settings) ? request.settings : {};
  if (settings.force_url_result === true) return true;
  const parsing = isPlainObject(request.parsing) ? request.parsing : {};
  const parsingSettings = isPlainObject(parsing.settings) ? parsing.settings : {};
  return parsingSettings.force_url_result === true;
}

/**
 * The response with its `result` replaced by the SDK's URLResult `{type: "url", url,
 * result_id}`; the URL serves the full response. Confidence details live in the full
 * response only.
 */
export function asUrlResult(
  full: Record<string, unknown>,
  url: string,
  resultId: string,
): Record<string, unknown> {
  const rest: Record<string, unknown> = {
    ...full,
    result: { type: 'url', url, result_id: resultId },
  };
  delete rest.response_confidence;
  return rest;
}
