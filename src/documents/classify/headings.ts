/** Longest line (in words) read as a heading; all-capital lines may be longer. */
const HEADING_WORDS = 4;
const CAPS_HEADING_WORDS = 8;

function words(line: string): number {
  return line.split(/\s+/).filter(Boolean).length;
}

/**
 * The structural text of a page: short lines and capitalised lines (titles, section
 * headings such as "EDUCATION" or "References") and field names before a colon
 * ("Invoice No:", "Diagnosis:"). Layout marks what a document *is*; running text is mostly
 * what it is *about*.
 */
export function headingLines(page: string): string[] {
  const out: string[] = [];
  for (const raw of page.split('\n')) {
    // Section numbering ("3.", "2 ", "IV.") and markdown marks are not words.
    const line = raw
      .trim()
      .replace(/^([#*>|-]+|\d+(\.\d+)*\.?|[ivx]+\.)\s+/i, '')
      .replace(/[*_|#]+/g, ' ')
      .trim();
    if (!/\p{L}/u.test(line)) continue;
    const count = words(line);
    const letters = line.replace(/[^\p{L}]/gu, '');
    const capitals = letters.length >= 3 && letters === letters.toUpperCase();
    if (count <= HEADING_WORDS || (capitals && count <= CAPS_HEADING_WORDS)) {
      out.push(line);
      continue;
    }
    const colon = line.indexOf(':');
    if (colon > 0 && words(line.slice(0, colon)) <= HEADING_WORDS) out.push(line.slice(0, colon));
  }
  return out;
}
