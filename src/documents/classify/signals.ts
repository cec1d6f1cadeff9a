import { analyze, type Term } from './text-analysis.js';

/**
 * Layout and format signals that hold in any language: what a page *has* (rows of priced
 * items, dated transactions, an IBAN, a vital sign, a reference list) rather than the words
 * it uses. Each signal found often enough on a page becomes English words, so criteria
 * written in English ("line items with quantity and price", "list of transactions",
 * "references or citations") find it whatever the document's language. Only Deep Classify
 * uses them.
 */
interface Signal {
  /** English words the signal is evidence for (lemmatised once, kept as a phrase). */
  words: string;
  /** Times it must occur on the page. */
  min: number;
  /** Occurrences on a page: matches of a pattern, or lines that pass a test. */
  count(page: string, lines: readonly string[]): number;
  /** Structure signals only Deep Classify reads (its layout pass). */
  deep?: boolean;
}

const AMOUNT = String.raw`-?\d{1,3}(?:[.,' ]\d{3})*[.,]\d{2}`;
const DATE = String.raw`(?:\d{1,2}[./-]\d{1,2}(?:[./-]\d{2,4})?|\d{4}-\d{2}-\d{2})`;
/** An amount closing a line, then maybe the till's tax class (`taxClass`), a currency or a star. */
function priceAtEnd(taxClass: string): RegExp {
  return new RegExp(String.raw`\s${AMOUNT}\s*(?:${taxClass}|[*€$£]|EUR|zł|PLN)?\s*$`, 'u');
}
/** Receipts' tax class as printed: one capital letter. */
const PRICE_AT_END = priceAtEnd(String.raw`[A-Z]\b`);
/**
 * The same with a till's tax class as OCR also gives it: "49.99 19", "2,49 1", "49.99 x" (a
 * photographed slip's "A" or "*" often comes out as a small letter or a digit).
 */
const PRICE_WITH_TAX_CLASS = priceAtEnd(String.raw`[A-Za-z]|\d{1,2}`);
const LETTER = /\p{L}/u;
/** Layout lines are short; a longer "line" is running text (or text without line breaks). */
const MAX_LINE = 200;
const DATED_AMOUNT_LINE = new RegExp(String.raw`^\s*${DATE}\s.*${AMOUNT}`);
const LEADING_DATE = new RegExp(String.raw`^\s*${DATE}\s`);
/**
 * A span of years opening a line or closing it (a CV's "2016 – 2019", "Sept 2018 – May
 * 2023", "03/2019 - present"), a month name or number before either year.
 */
const YEAR_SPAN = String.raw`(?:(?:\d{1,2}[./]\s*|\p{L}{3,10}\.?\s+)?(?:19|20)\d{2})\s*(?:[-–—]|to|bis|à|a|tot|do)\s*(?:(?:\d{1,2}[./]\s*|\p{L}{3,10}\.?\s+)?(?:19|20)\d{2}|\p{L}+)`;
const YEAR_RANGE_LINE = new RegExp(String.raw`^\s*${YEAR_SPAN}|${YEAR_SPAN}\s*$`, 'iu');
const REFERENCE_LINE =
  /^\s*(?:\[\d+\]|\d+\.\s+\p{Lu}[\p{L}'-]+,?\s+(?:\p{Lu}\.|\p{Lu}\p{Ll}+,))|\bet al\.|\bdoi[:.]\s*10\.\d+|\b10\.\d{4,}\/\S+/u;

const CLOCK = /\b(?:[01]?\d|2[0-3]):[0-5]\d(?::[0-5]\d)?\b/g;
/** A till slip is short: at most this many lines, most of them short. */
const SLIP_LINES = 90;
const SLIP_LINE_CHARS = 42;
const PRICED_ROWS = 3;

function pricedRows(all: readonly string[], price = PRICE_AT_END): number {
  return all.filter((line) => LETTER.test(line) && price.test(line) && !LEADING_DATE.test(line))
    .length;
}

function tillSlip(page: string, all: readonly string[], price = PRICE_AT_END): boolean {
  const filled = all.filter((line) => line.trim() !== '');
  if (filled.length === 0 || filled.length > SLIP_LINES) return false;
  const short = filled.filter(
    (line) => line.trim().replace(/\s+/g, ' ').length <= SLIP_LINE_CHARS,
  ).length;
  return (
    short >= 0.8 * filled.length &&
    pricedRows(all, price) >= PRICED_ROWS &&
    (page.match(CLOCK)?.length ?? 0) > 0
  );
}

const EMAIL = String.raw`[\w.+-]+@[\w-]+\.[\w.-]+`;
const CONTACT = new RegExp(String.raw`${EMAIL}|\+?\d[\d ().-]{7,}\d|linkedin|github\.com`, 'iu');
/** Lines at the top of a CV that hold the person's name and contact block. */
const CV_HEAD_LINES = 12;
const CV_DATED_ENTRIES = 3;
/** A paper's own headings: a CV with publications has none of these. */
const PAPER_HEADING =
  /^\s*(?:\d+\.?\s+)?(?:abstract|introduction|zusammenfassung|einleitung|samenvatting|resumen|resumo|streszczenie|riassunto)\s*$/imu;

/**
 * A CV's layout: a contact block (e-mail, phone, profile link) in the first lines, several
 * entries dated by a span of years, and no paper heading (abstract, introduction). An
 * academic CV lists publications, so it also has references; the dated entries and the
 * contact block at the top are what a paper lacks.
 */
function cvLayout(page: string, all: readonly string[]): boolean {
  const filled = all.filter((line) => line.trim() !== '');
  return (
    filled.slice(0, CV_HEAD_LINES).some((line) => CONTACT.test(line)) &&
    filled.filter((line) => YEAR_RANGE_LINE.test(line)).length >= CV_DATED_ENTRIES &&
    !PAPER_HEADING.test(page)
  );
}

function matches(pattern: RegExp): Signal['count'] {
  return (page) => page.match(pattern)?.length ?? 0;
}

function lines(test: RegExp): Signal['count'] {
  return (_, all) => all.filter((line) => test.test(line)).length;
}

const SIGNALS: readonly Signal[] = [
  // Rows of priced items without a leading date: invoice lines, till receipts.
  {
    words: 'item price',
    min: PRICED_ROWS,
    count: (_, all) => pricedRows(all),
  },
  // Rows that start with a date and carry an amount: account transactions.
  { words: 'transaction list', min: 3, count: lines(DATED_AMOUNT_LINE) },
  {
    words: 'account number',
    min: 1,
    count: matches(/\b[A-Z]{2}\d{2}(?: ?[A-Z0-9]{4}){3,7}(?: ?[A-Z0-9]{1,3})?\b/g),
  },
  { words: 'email contact', min: 1, count: matches(new RegExp(EMAIL, 'g')) },
  {
    words: 'phone',
    min: 1,
    count: matches(/(?:\+\d{1,3}[ .-]?)?(?:\(\d{2,4}\)[ .-]?)?\d{2,4}(?:[ .-]\d{2,4}){2,4}\b/g),
  },
  // CV entries: lines that open with a span of years ("2016 – 2019", "2019 - present").
  { words: 'experience date job', min: 2, count: lines(YEAR_RANGE_LINE) },
  { words: 'reference citation', min: 2, count: lines(REFERENCE_LINE) },
  // Blanks to fill in and boxes to tick: forms.
  { words: 'form box', min: 2, count: matches(/_{5,}|\[ ?[xX ]?\]|[☐☑☒□■]/g) },
  {
    words: 'vital sign',
    min: 1,
    count: matches(
      /\b(?:BP|RR|TA|PA)\s*:?\s*\d{2,3}\/\d{2,3}\b|\b\d{2,3}\s*(?:bpm|\/min)\b|\b(?:SpO2|SaO2|HbA1c|BMI)\b|\b3\d[.,]\d\s*°\s*C\b/gi,
    ),
  },
  {
    words: 'medication dose',
    min: 1,
    count: matches(
      /\b\d+(?:[.,]\d+)?\s*(?:mg|mcg|µg|ml|IE|IU|I\.E\.)\b(?:[^\n]{0,30}\b(?:BID|TID|QID|QD|PRN|daily|dd|täglich|x\s*\d|\d-\d-\d))?/gi,
    ),
  },
  {
    words: 'clause',
    min: 3,
    count: matches(/§\s*\d+|\b(?:article|artikel|artículo|articolo|artigo|art\.)\s+\d+/gi),
  },
  // A till's clock: "14:37", next to amounts on a short page.
  { words: 'time', min: 1, count: matches(CLOCK) },
  // A till slip: a short page of short lines, priced rows and the clock time of the sale.
  { words: 'purchase', min: 1, count: (page, all) => (tillSlip(page, all) ? 1 : 0) },
  // Deep Classify also reads a slip whose prices carry the till's tax class (a one-item
  // slip then still has its item, total, cash and change rows), when the plain reading
  // did not already find the slip.
  {
    words: 'purchase item price',
    min: 1,
    count: (page, all) =>
      !tillSlip(page, all) && tillSlip(page, all, PRICE_WITH_TAX_CLASS) ? 1 : 0,
    deep: true,
  },
  // Deep Classify names a till slip (either reading of its prices) in plain words a criterion
  // for receipts would use. A German slip read well has an invoice's words too (Stück, MwSt,
  // Netto, Brutto, Summe), and only its form says it was paid at the till.
  {
    words: 'receipt of a purchase paid in a shop, cash or card',
    min: 1,
    count: (page, all) => (tillSlip(page, all, PRICE_WITH_TAX_CLASS) ? 1 : 0),
    deep: true,
  },
  // A CV: contact block on top, dated entries; plain words a criterion for CVs would use.
  {
    words: 'resume of a person, jobs held, schooling, work experience, education',
    min: 1,
    count: (page, all) => (cvLayout(page, all) ? 1 : 0),
    deep: true,
  },
];

const phrases = new Map<string, Term[]>();

function termsOf(words: string): Term[] {
  let terms = phrases.get(words);
  if (!terms) phrases.set(words, (terms = analyze(words, true)));
  return terms;
}

/**
 * Terms for the signals found on a page, each in a sentence of its own below `base`; the
 * structure signals (a CV's layout) only for Deep Classify.
 */
export function signalTerms(page: string, base: number, deep = false): Term[] {
  const all = page.split('\n').filter((line) => line.length <= MAX_LINE);
  const out: Term[] = [];
  SIGNALS.forEach((signal, index) => {
    if ((signal.deep && !deep) || signal.count(page, all) < signal.min) return;
    for (const term of termsOf(signal.words)) {
      out.push({ ...term, sentence: base - index, negated: false });
    }
  });
  return out;
}
