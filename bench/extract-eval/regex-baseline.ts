/**
 * The baseline extract is measured against: a handful of regular expressions over the
 * document's text lines (as `pdftotext -layout` would give them), the way one would write
 * them for invoices and receipts in the evaluation's languages. Bench code only: the word
 * lists here are exactly what the service must not need.
 */
const NUMBER = String.raw`(\d{1,3}(?:[.,\s]\d{3})*[.,]\d{2}|\d+[.,]\d{2})`;
const TOTAL = new RegExp(
  String.raw`(?:total|totaal|gesamt|summe|montant|net à payer|razem|do zapłaty|amount due|grand total|te betalen)[^\n\d]{0,40}?` +
    NUMBER,
  'giu',
);
const INVOICE_NUMBER =
  /(?:invoice|factuur|rechnung|facture|faktura|bill)\s*(?:n[or°º]?\.?|nr\.?|number|nummer|numéro|#)\s*[:.]?\s*([A-Z0-9][\w\-/]*\d[\w\-/]*)/iu;
const DATE = /(\d{4}-\d{2}-\d{2}|\d{1,2}[./-]\d{1,2}[./-]\d{2,4})/u;
const MONTHS =
  'january|february|march|april|may|june|july|august|september|october|november|december|jan|feb|mar|apr|jun|jul|aug|sep|oct|nov|dec';
const NAMED_DATE = new RegExp(
  String.raw`(\d{1,2})\s+(${MONTHS})[a-z]*\.?\s+(\d{4})|(${MONTHS})[a-z]*\.?\s+(\d{1,2}),?\s+(\d{4})`,
  'iu',
);
const CURRENCY: [RegExp, string][] = [
  [/€|\bEUR\b/u, 'EUR'],
  [/\$|\bUSD\b/u, 'USD'],
  [/£|\bGBP\b/u, 'GBP'],
  [/\bPLN\b|zł/u, 'PLN'],
  [/\bRM\b|\bMYR\b/u, 'MYR'],
  [/₹|\bINR\b|\bRs\.?/u, 'INR'],
];

const GOVERNING_LAW =
  /governed\b[^.]{0,80}?\blaws?\s+of\s+(?:the\s+)?(?:(?:state|commonwealth|province|republic)\s+of\s+)?([A-Z][\w.']*(?:[ ,]+(?:of\s+)?[A-Z][\w.']*){0,3})/u;

function number(text: string): number {
  const t = text.replace(/\s/g, '');
  return Number(`${t.slice(0, -3).replace(/[.,]/g, '')}.${t.slice(-2)}`);
}

function isoOf(match: RegExpExecArray | null): string | null {
  if (!match) return null;
  if (match[1] && /^\d{4}-/.test(match[1])) return match[1];
  const parts = match[1]?.split(/[./-]/);
  if (!parts) return null;
  const [d, m, y] = parts.map(Number);
  const year = y < 100 ? 2000 + y : y;
  return `${year}-${String(m).padStart(2, '0')}-${String(d).padStart(2, '0')}`;
}

function namedIso(match: RegExpExecArray | null): string | null {
  if (!match) return null;
  const months = MONTHS.split('|');
  const monthOf = (name: string) =>
    (months.indexOf(name.toLowerCase().slice(0, 3)) % 12) + 1 ||
    months.indexOf(name.toLowerCase()) + 1;
  const [day, month, year] = match[1]
    ? [Number(match[1]), monthOf(match[2]), match[3]]
    : [Number(match[5]), monthOf(match[4]), match[6]];
  return `${year}-${String(month).padStart(2, '0')}-${String(day).padStart(2, '0')}`;
}

export function regexBaseline(text: string): Record<string, unknown> {
  const lines = text
    .split('\n')
    .map((l) => l.trim())
    .filter(Boolean);
  const totals = [...text.matchAll(TOTAL)];
  const total = totals.length > 0 ? number(totals[totals.length - 1][1]) : null;
  const named = NAMED_DATE.exec(text);
  const numeric = DATE.exec(text);
  const date =
    named && (!numeric || named.index < numeric.index) ? namedIso(named) : isoOf(numeric);
  const firstLine = lines[0] ?? null;
  return {
    invoice_number: INVOICE_NUMBER.exec(text)?.[1] ?? null,
    date,
    amount: total,
    total,
    currency: CURRENCY.find(([re]) => re.test(text))?.[1] ?? null,
    issuer: firstLine,
    company: firstLine,
    address: lines.slice(1, 4).join(' ') || null,
    title: firstLine,
    agreement_date: date,
    governing_law: GOVERNING_LAW.exec(text.replace(/\s+/g, ' '))?.[1] ?? null,
  };
}
