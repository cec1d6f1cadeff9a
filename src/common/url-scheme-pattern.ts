/**
 * The JSON Schema `pattern` of a URL with one of `schemes`, for descriptions whose `format:
 * uri` alone admits any scheme the service then refuses. Schemes compare case-insensitively
 * and the WHATWG URL parser drops leading spaces and control characters, as the pattern
 * does; it is spelt without flags, which JSON Schema patterns do not have.
 */
export function urlSchemePattern(schemes: readonly string[]): string {
  const spelt = schemes.map((scheme) =>
    [...scheme]
      .map((c) => (c.toLowerCase() === c.toUpperCase() ? c : `[${c.toUpperCase()}${c}]`))
      .join(''),
  );
  return `^[\\u0000-\\u0020]*(?:${spelt.join('|')}):`;
}
