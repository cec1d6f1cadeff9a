/** Text normalization and matching shared by extract and split. */

const STOPWORDS = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with'.split(
    ' ',
  ),
);

/**
 * Lower case, punctuation to spaces, `#` read as "number", spaces collapsed. Composed first
 * (NFC): "ä" typed as "a" and a combining diaeresis is the same label as "ä", and a mark
 * left alone would read as punctuation and split the word.
 */
export function normalize(text: string): string {
  return text
    .normalize('NFC')
    .toLowerCase()
    .replace(/#/g, ' number ')
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();
}

/** Property names as words: `invoice_number`, `invoiceNumber` -> "invoice number". */
export function humanize(name: string): string {
  return normalize(name.replace(/([a-z0-9])([A-Z])/g, '$1 $2').replace(/_/g, ' '));
}

/** A light suffix stemmer: enough to match "invoices"/"invoice", "payments"/"payment". */
export function stem(word: string): string {
  if (word.length <= 3) return word;
  for (const suffix of ['ations', 'ation', 'ings', 'ing', 'ies', 'es', 's', 'ed', 'ly']) {
    if (word.endsWith(suffix) && word.length - suffix.length >= 3) {
      return suffix === 'ies' ? word.slice(0, -3) + 'y' : word.slice(0, -suffix.length);
    }
  }
  return word;
}

export function contentWords(text: string): string[] {
  return normalize(text)
    .split(' ')
    .filter((w) => w !== '' && !STOPWORDS.has(w));
}

export function stems(text: string): string[] {
  return contentWords(text).map(stem);
}

function levenshtein(a: string, b: string): number {
  const previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    let diagonal = previous[0];
    previous[0] = i;
    for (let j = 1; j <= b.length; j++) {
      const above = previous[j];
      previous[j] = Math.min(
        previous[j] + 1,
        previous[j - 1] + 1,
        diagonal + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
      diagonal = above;
    }
  }
  return previous[b.length];
}

/** 1 for equal strings, towards 0 as edits grow (tolerates OCR slips like "lnvoice"). */
export function similarity(a: string, b: string): number {
  if (a === b) return 1;
  const longest = Math.max(a.length, b.length);
  return longest === 0 ? 1 : 1 - levenshtein(a, b) / longest;
}

/**
 * Words that label the same field on real documents. Each group is symmetric. Kept small
 * and specific: a wrong synonym makes deep extract pick a wrong value.
 */
const SYNONYM_GROUPS: string[][] = [
  ['number', 'no', 'num', 'nr', 'id', 'reference', 'ref'],
  ['date', 'dated', 'issued', 'issue date'],
  ['total', 'amount due', 'balance due', 'grand total', 'total due', 'total amount'],
  ['vendor', 'supplier', 'seller', 'from', 'issuer'],
  ['customer', 'client', 'buyer', 'bill to', 'sold to', 'recipient'],
  ['due date', 'payment due', 'pay by'],
  ['invoice', 'bill'],
  ['tax', 'vat', 'gst', 'sales tax'],
  ['subtotal', 'net amount', 'net total'],
  ['quantity', 'qty', 'units'],
  ['description', 'item', 'product', 'service'],
  ['price', 'unit price', 'rate'],
  ['amount', 'line total', 'sum'],
  ['address', 'addr', 'location'],
  ['phone', 'telephone', 'tel'],
  ['email', 'e mail', 'mail'],
  ['purchase order', 'po'],
  ['account', 'acct'],
  ['name', 'full name'],
];

const SYNONYMS = new Map<string, string[]>();
for (const group of SYNONYM_GROUPS) {
  for (const term of group) SYNONYMS.set(term, [...(SYNONYMS.get(term) ?? []), ...group]);
}

/**
 * Variants of a label with synonyms substituted for its words or phrases, e.g.
 * "invoice number" -> "invoice no", "bill number", "bill no", ...
 */
export function labelVariants(label: string, limit = 64): string[] {
  const words = normalize(label).split(' ').filter(Boolean);
  let variants = [''];
  let i = 0;
  while (i < words.length && variants.length <= limit) {
    // Longest phrase starting at i that has synonyms.
    let phraseLength = 1;
    for (let n = Math.min(3, words.length - i); n >= 1; n--) {
      if (SYNONYMS.has(words.slice(i, i + n).join(' '))) {
        phraseLength = n;
        break;
      }
    }
    const phrase = words.slice(i, i + phraseLength).join(' ');
    const options = [...new Set([phrase, ...(SYNONYMS.get(phrase) ?? [])])];
    variants = variants.flatMap((v) => options.map((o) => (v === '' ? o : `${v} ${o}`)));
    i += phraseLength;
  }
  return [...new Set(variants)].slice(0, limit);
}

/** Function words never counted as evidence (English: field names are English). */
export const FUNCTION_WORDS: ReadonlySet<string> = new Set(
  'a an and are as at be by for from has have in is it its of on or that the this to was were will with which who what when where your our their'.split(
    ' ',
  ),
);

/**
 * The head phrase of a description: its words up to the first clause or preposition
 * ("The total amount of the invoice, including taxes" -> "The total amount").
 */
export function descriptionHead(description: string): string {
  const words = description.split(/\s+/);
  const end = words.findIndex(
    (w, i) =>
      i > 0 &&
      (/^[,;:(]/.test(w) ||
        /^(of|that|which|who|whose|where|when|for|on|in|at|to|from|by|with|as|including|excluding|per)$/i.test(
          w.replace(/[,;:.]$/, ''),
        )),
  );
  const head = end < 0 ? words : words.slice(0, end);
  return head.join(' ').replace(/[,;:.]$/, '');
}

/**
 * Whether `short` could be written for `word` by leaving letters out: the same first letter
 * and its other letters in the word's order ("qty" of "quantity", "cust" of "customer").
 */
export function keepsLettersInOrder(short: string, word: string): boolean {
  if (short.length === 0 || short[0] !== word[0]) return false;
  let at = 1;
  for (const ch of short.slice(1)) {
    at = word.indexOf(ch, at);
    if (at < 0) return false;
    at++;
  }
  return true;
}
