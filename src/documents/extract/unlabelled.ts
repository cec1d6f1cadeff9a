/**
 * Values a document prints without a label: the issuing organization's name at the top
 * of the first page (a letterhead, a receipt's shop name) and its address under it.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { findDates } from './dates.js';
import { isDocumentVocabulary } from './label-similarity.js';

/** Lines of the first page looked at for a letterhead. */
const HEAD_LINES = 8;
const ADDRESS_LINES = 5;

const LABEL_PAIR = /^[^:：]{1,40}[:：]\s*\S/u;
/** Contact and registration lines end an address: e-mail, web, long digit runs (phone). */
const CONTACT = /@|www\.|https?:|\d[\d\s\-()]{7,}\d/iu;

function letters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

function nameLike(text: string): boolean {
  const t = text.trim();
  if (letters(t) < 3 || letters(t) / t.replace(/\s/g, '').length < 0.5) return false;
  if (LABEL_PAIR.test(t) || findDates(t).length > 0) return false;
  return !isDocumentVocabulary(t);
}

/** The first name-like line at the top of page 1 (the larger of two close ones). */
export function unlabelledOrganization(
  lines: readonly LayoutLine[],
): { text: string; line: LayoutLine; index: number } | undefined {
  const head = lines.slice(0, HEAD_LINES).filter((l) => l.bbox.page === lines[0]?.bbox.page);
  const candidates = head
    .map((line, index) => ({ line, index, text: line.text.trim() }))
    .filter((c) => nameLike(c.text));
  if (candidates.length === 0) return undefined;
  const [first, second] = candidates;
  if (second && second.index <= first.index + 1 && second.line.size > first.line.size * 1.3)
    return second;
  return first;
}

/** The address lines under the letterhead's name, joined by spaces. */
export function unlabelledPlace(
  lines: readonly LayoutLine[],
): { text: string; lines: LayoutLine[] } | undefined {
  const organization = unlabelledOrganization(lines);
  if (!organization) return undefined;
  const taken: LayoutLine[] = [];
  for (let i = organization.index + 1; i < lines.length && taken.length < ADDRESS_LINES; i++) {
    const text = lines[i].text.trim();
    if (LABEL_PAIR.test(text) || CONTACT.test(text) || findDates(text).length > 0) break;
    if (letters(text) === 0) break;
    // A registration number in brackets right under the name is not the address.
    if (taken.length === 0 && /^\(?[\w-]*\d[\w-]*\)?$/u.test(text)) continue;
    taken.push(lines[i]);
  }
  if (taken.length === 0 || !taken.some((l) => /\d/.test(l.text))) return undefined;
  return { text: taken.map((l) => l.text.trim()).join(' '), lines: taken };
}
