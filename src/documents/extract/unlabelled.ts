/**
 * Values a document prints without a label: the issuing organization's name at the top
 * of the first page (a letterhead, a receipt's shop name) and its address under it.
 */
import type { LayoutLine } from '../parse/layout.types.js';
import { cosine, sentenceEncoder } from '../encoder/sentence-encoder.js';
import { findDates } from './dates.js';
import { readable, type Paragraph } from './passages.js';
import { namesADocument, type EntityKind } from './wordnet-kinds.js';

/** Lines of the first page looked at for a letterhead. */
const HEAD_LINES = 14;
const ADDRESS_LINES = 6;

const LABEL_PAIR = /^[^:：]{1,40}[:：]\s*\S/u;
/** Contact lines end an address: e-mail, web, long digit runs (telephone numbers). */
const CONTACT = /@|www\.|https?:|\d[\d\s\-()]{7,}\d/iu;
/** A company registration number: digits with a check letter ("933109-X", "JM0517726"). */
const REGISTRATION = /\b\d{5,}-?[A-Z]\b|\b[A-Z]{1,3}\d{6,}(?:-[A-Z])?\b/u;

/**
 * At or above this encoder similarity to the word "document" a short line names a kind of
 * document ("Rechnung", "FACTUUR", "OFFICIAL RECEIPT"); shop names measure below 0.22.
 */
const DOCUMENT_SIMILARITY = 0.25;
const TITLE_WORDS = 4;

/**
 * A short line that names the document itself (its title: "TAX INVOICE", "GUEST CHECK",
 * "Factuur") rather than who issued it: its head noun is a kind of document in WordNet,
 * or, in any language, the sentence encoder puts it near "document".
 */
function namesTheDocument(text: string): boolean {
  const words = text.match(/\p{L}{3,}/gu) ?? [];
  if (words.length === 0 || words.length > TITLE_WORDS) return false;
  if (namesADocument(words[words.length - 1].toLowerCase())) return true;
  const encoder = sentenceEncoder();
  if (!encoder) return false;
  const [line, document] = encoder.embed([text.trim(), 'document']);
  return cosine(line, document) >= DOCUMENT_SIMILARITY;
}

/** Paragraphs at the head of the document looked at for its title (a cover, a legend). */
const TITLE_PARAGRAPHS = 16;
const TITLE_PAGES = 2;
/** Below this encoder similarity to what the field asks, a heading is no title of it. */
const TITLE_SIMILARITY = 0.3;
/** Headings this near the best one count as good; the first of them is the title. */
const NEAR_BEST_TITLE = 0.85;

/**
 * The document's title as a title field asks for it: among the headings at the head of the
 * document (a line standing alone, no label, no number), the first that is about as near
 * the field's description as the nearest ("CO-BRANDING AGREEMENT" before a later
 * "AGREEMENT" for "The title of the agreement"). Without the encoder: the first heading
 * whose head noun names a kind of document in WordNet.
 */
export function documentTitle(
  paragraphs: readonly Paragraph[],
  lines: readonly LayoutLine[],
  question: string,
): { text: string; line: LayoutLine; similarity: number } | undefined {
  const firstPage = lines[0]?.bbox.page ?? 0;
  const headings: { text: string; line: LayoutLine }[] = [];
  for (const paragraph of paragraphs.slice(0, TITLE_PARAGRAPHS)) {
    const line = lines[paragraph.lines[0]];
    if (line.bbox.page >= firstPage + TITLE_PAGES) break;
    const text = paragraph.text.trim().replace(/[.:;,]+$/u, '');
    if (!paragraph.heading || LABEL_PAIR.test(text) || /\d/.test(text) || letters(text) < 4)
      continue;
    headings.push({ text, line });
  }
  if (headings.length === 0) return undefined;
  const encoder = sentenceEncoder();
  if (!encoder) {
    const named = headings.find((h) => {
      const words = h.text.match(/\p{L}{3,}/gu) ?? [];
      return words.length > 0 && namesADocument(words[words.length - 1].toLowerCase());
    });
    return named ? { ...named, similarity: TITLE_SIMILARITY } : undefined;
  }
  const [asked, ...vectors] = encoder.embed([question, ...headings.map((h) => readable(h.text))]);
  const similarities = vectors.map((v) => cosine(asked, v));
  const best = Math.max(...similarities);
  if (best < TITLE_SIMILARITY) return undefined;
  const at = similarities.findIndex((s) => s >= Math.max(TITLE_SIMILARITY, NEAR_BEST_TITLE * best));
  return { ...headings[at], similarity: similarities[at] };
}

function letters(text: string): number {
  return (text.match(/\p{L}/gu) ?? []).length;
}

/** A name with a registration number or bracketed code after it, without them. */
function withoutRegistration(text: string): string {
  return text
    .replace(/\s*\([^()]*\d[^()]*\)?\s*$/u, '')
    .replace(new RegExp(`\\s*${REGISTRATION.source}\\s*$`, 'u'), '')
    .trim();
}

/** Whether a text reads as a name: letters mostly, no label, date or contact in it. */
export function nameLike(text: string): boolean {
  const t = withoutRegistration(text.trim());
  if (letters(t) < 3 || letters(t) / t.replace(/\s/g, '').length < 0.5) return false;
  if (LABEL_PAIR.test(t) || /[:：]$/u.test(t) || findDates(t).length > 0 || CONTACT.test(t))
    return false;
  return !namesTheDocument(t);
}

/** Words of an address line, at most: a longer line is running text. */
const ADDRESS_LINE_WORDS = 12;

function addressLike(text: string, first: boolean): boolean {
  const t = text.trim();
  if (letters(t) < 2 || CONTACT.test(t) || findDates(t).length > 0) return false;
  if (t.split(/\s+/).length > ADDRESS_LINE_WORDS) return false;
  if (REGISTRATION.test(t) || namesTheDocument(t)) return false;
  // The first line of an address has a number (house, lot, floor, postcode).
  return !first || /\d/.test(t);
}

/** The head of the first page: its first lines, up to the first line of running text. */
function headOf(lines: readonly LayoutLine[]): LayoutLine[] {
  const page = lines[0]?.bbox.page;
  const head = lines.slice(0, HEAD_LINES).filter((l) => l.bbox.page === page);
  const prose = head.findIndex((l) => l.text.trim().split(/\s+/).length > ADDRESS_LINE_WORDS);
  return prose < 0 ? head : head.slice(0, prose);
}

/** The address block of the letterhead: lines from the first numbered one. */
function addressBlock(head: readonly LayoutLine[]): { start: number; end: number } | undefined {
  for (let start = 1; start < head.length; start++) {
    if (!addressLike(head[start].text, true)) continue;
    // An address is under a name: a line of digits alone is a code, not an address.
    if (letters(head[start].text) < 4) continue;
    let end = start;
    while (
      end + 1 < head.length &&
      end + 1 - start < ADDRESS_LINES &&
      addressLike(head[end + 1].text, false) &&
      !LABEL_PAIR.test(head[end + 1].text.trim())
    ) {
      end++;
    }
    return { start, end };
  }
  return undefined;
}

const unbalanced = (text: string, open: string, close: string) =>
  text.split(open).length !== text.split(close).length;

/**
 * Whether `line` carries on the name begun on `above`: a bracket or "&" left open, or,
 * for the name's last line (`tail`), a short tail ("SDN BHD", "ELECTRICAL") set in the
 * same size of type.
 */
function continuesName(above: LayoutLine, line: LayoutLine, tail: boolean): boolean {
  // A name broken over lines stays in its column; a line beside it is another block.
  const overlap =
    Math.min(above.bbox.left + above.bbox.width, line.bbox.left + line.bbox.width) -
    Math.max(above.bbox.left, line.bbox.left);
  if (overlap <= 0) return false;
  const prior = above.text.trim();
  const text = withoutRegistration(line.text.trim());
  if (/[&(,-]$/u.test(prior) || (unbalanced(prior, '(', ')') && unbalanced(text, '(', ')')))
    return true;
  const sameSize = Math.abs(above.size - line.size) <= 0.2 * Math.max(above.size, line.size);
  return tail && sameSize && (text.match(/\p{L}{2,}/gu) ?? []).length <= SHORT_TAIL_WORDS;
}

/**
 * Whether the lines of a value read on under its first line carry on a value of the
 * field's kind, by the letterhead's own tests: each line of a name continues the one
 * above it (an open bracket or "&", a short tail), each line after an address's first is
 * an address line. A name read on into the address under it, or an address into a
 * telephone line, fails.
 */
export function readsOnAs(kind: EntityKind, block: readonly LayoutLine[]): boolean {
  if (block.length < 2) return false;
  if (kind === 'place')
    return block
      .slice(1)
      .every((line) => addressLike(line.text, false) && !LABEL_PAIR.test(line.text.trim()));
  // A short line with a number under a name is the address's first line, not a tail.
  return block
    .slice(1)
    .every(
      (line, k) =>
        nameLike(line.text) &&
        !addressLike(line.text, true) &&
        continuesName(block[k], line, k === block.length - 2),
    );
}

/** Words of a line that can only be the tail of a name broken above it. */
const SHORT_TAIL_WORDS = 3;
/** Lines a name may be broken over. */
const NAME_LINES = 3;

/**
 * Whether a line is the registered name: a registration number on it or alone on the
 * line under it ("TRI SHAAS SDN BHD (728515-M)", "IKANO HANDEL SDN BHD" / "(1074617K)").
 * A brand or branch printed near it ("IKEA CHERAS") carries none.
 */
function registered(head: readonly LayoutLine[], i: number): boolean {
  const own = head[i].text.trim();
  if (REGISTRATION.test(own)) return true;
  const below = head[i + 1]?.text.trim() ?? '';
  return REGISTRATION.test(below) && !nameLike(below);
}

/**
 * The organization's name: the name-like line carrying a registration number, else the
 * name-like line nearest above its address, else the first; with the lines above it that
 * its name was broken from.
 */
export function unlabelledOrganization(
  lines: readonly LayoutLine[],
): { text: string; line: LayoutLine; index: number } | undefined {
  const head = headOf(lines);
  const block = addressBlock(head);
  const end = block ? block.start : head.length;
  let index = head.slice(0, end).findIndex((l, i) => nameLike(l.text) && registered(head, i));
  // A legal footer names the sender; a name at the head may be the recipient's.
  const footer = index < 0 ? footerName(lines) : undefined;
  if (footer) return footer;
  // Above the address, a name the document gives again further down is its issuer's.
  const signed = index < 0 ? namedAgain(head.slice(0, end), lines.slice(head.length)) : undefined;
  if (signed) return signed;
  if (index < 0 && block) {
    for (let i = block.start - 1; i >= 0 && index < 0; i--) if (nameLike(head[i].text)) index = i;
  }
  if (index < 0) index = head.findIndex((l) => nameLike(l.text));
  if (index < 0) return undefined;
  let text = withoutRegistration(head[index].text.trim());
  // A name broken over lines ("HOME MASTER HARDWARE &" / "ELECTRICAL").
  for (let k = index; k > 0 && index - k < NAME_LINES - 1; k--) {
    const above = head[k - 1];
    if (!nameLike(above.text) || !continuesName(above, head[k], k === index)) break;
    text = `${withoutRegistration(above.text.trim())} ${text}`;
  }
  return { text: text === '' ? head[index].text.trim() : text, line: head[index], index };
}

/** Lines at the foot of the first page looked at for a legal footer. */
const FOOT_LINES = 6;
/** Words of a name standing alone on a footer's line. */
const FOOTER_NAME_WORDS = 5;
/** A footer is small print: type at most this share of the page's usual size. */
const SMALL_PRINT = 0.85;

function median(values: readonly number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)] ?? 0;
}

/**
 * The sender's name in the legal footer of the first page: a short name-like line alone,
 * in small print, over the lines of its office's contacts or registration, that the
 * document names elsewhere too (the account holder of a remittance line, a signature).
 * Only the issuer prints its legal identity at the foot of its document.
 */
function footerName(
  lines: readonly LayoutLine[],
): { text: string; line: LayoutLine; index: number } | undefined {
  const page = lines[0]?.bbox.page;
  const pageLines = lines.filter((l) => l.bbox.page === page);
  const usual = median(pageLines.map((l) => l.size));
  const foot = pageLines.length - Math.min(FOOT_LINES, Math.floor(pageLines.length / 3));
  for (let i = foot; i < pageLines.length; i++) {
    const line = pageLines[i];
    const text = withoutRegistration(line.text.trim());
    if (line.segments.length !== 1 || line.size > SMALL_PRINT * usual) continue;
    if (text.split(/\s+/).length > FOOTER_NAME_WORDS || !nameLike(text)) continue;
    const office = pageLines.slice(i + 1, i + 3);
    if (!office.some((l) => CONTACT.test(l.text) || REGISTRATION.test(l.text))) continue;
    const needle = looseText(text);
    const elsewhere = looseText(
      lines
        .filter((l) => l !== line)
        .map((l) => l.text)
        .join('\n'),
    );
    if (letters(text) >= NAME_LETTERS && elsewhere.includes(needle))
      return { text, line, index: lines.indexOf(line) };
  }
  return undefined;
}

/** Parts of a one-line return address ("Acme AG - Mainstreet 4 - 12345 Town"). */
const PART_SEPARATOR = /\s+[-–|·•]\s+/u;
/** Letters a name needs before its repetition elsewhere counts as evidence. */
const NAME_LETTERS = 4;

/**
 * The names a head line may give: the line itself, the first part of a one-line return
 * address, and the words before a title's head noun ("Acme Web Services Invoice").
 */
function namesOnLine(text: string): string[] {
  const names = [withoutRegistration(text.trim())];
  const parts = text.trim().split(PART_SEPARATOR);
  if (parts.length >= 2) names.push(withoutRegistration(parts[0]));
  const words = text.trim().split(/\s+/);
  const head = (words.at(-1)?.match(/\p{L}{3,}/gu) ?? []).at(-1);
  if (words.length >= 3 && head && namesADocument(head.toLowerCase()))
    names.push(words.slice(0, -1).join(' '));
  return names.filter((n) => letters(n) >= NAME_LETTERS && nameLike(n));
}

const looseText = (text: string) =>
  ` ${text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()} `;

/**
 * The name on these lines of the head that the rest of the document gives again (an issuer
 * signs its document: the legal footer, the bank account's holder, "sold by"; a recipient
 * is named once, in its address block): the most repeated, the first of equals.
 */
function namedAgain(
  head: readonly LayoutLine[],
  below: readonly LayoutLine[],
): { text: string; line: LayoutLine; index: number } | undefined {
  const rest = looseText(below.map((l) => l.text).join('\n'));
  let best: { text: string; line: LayoutLine; index: number; times: number } | undefined;
  head.forEach((line, index) => {
    for (const name of namesOnLine(line.text)) {
      const needle = looseText(name);
      let times = 0;
      for (let at = rest.indexOf(needle); at >= 0; at = rest.indexOf(needle, at + 1)) times++;
      if (times > 0 && (!best || times > best.times)) best = { text: name, line, index, times };
    }
  });
  return best && { text: best.text, line: best.line, index: best.index };
}

/** The address lines under the letterhead's name, joined by spaces. */
export function unlabelledPlace(
  lines: readonly LayoutLine[],
): { text: string; lines: LayoutLine[] } | undefined {
  const head = headOf(lines);
  const block = addressBlock(head);
  if (!block) return undefined;
  const taken = head.slice(block.start, block.end + 1);
  return { text: taken.map((l) => l.text.trim()).join(' '), lines: taken };
}
