/** Credits are DECIMAL(18,6): at most 12 integer digits and 6 fractional digits. */
const DECIMAL = /^(\d{1,12})(?:\.(\d{1,6}))?$/;

export type CreditsParse =
  { ok: true; value: string } | { ok: false; negative: boolean; detail: string };

/**
 * Parses credits given as a decimal string or a JSON number into canonical text with six
 * fractional digits, without ever going through binary floating point for strings.
 */
export function parseCredits(raw: unknown): CreditsParse {
  let text: string;
  if (typeof raw === 'number') {
    if (!Number.isFinite(raw))
      return { ok: false, negative: false, detail: 'credits must be finite' };
    // Shortest round-trip text of the double; exponents only appear outside DECIMAL(18,6) range.
    text = String(raw);
  } else if (typeof raw === 'string') {
    text = raw.trim();
  } else {
    return { ok: false, negative: false, detail: 'credits must be a decimal string or a number' };
  }
  if (text.startsWith('-')) {
    const magnitude = text.slice(1);
    if (/^0*(\.0*)?$/.test(magnitude) && magnitude !== '') text = magnitude;
    else return { ok: false, negative: true, detail: `credits must not be negative, got ${text}` };
  }
  if (text.startsWith('+')) text = text.slice(1);
  const match = DECIMAL.exec(text);
  if (!match) {
    return {
      ok: false,
      negative: false,
      detail: `credits must be a decimal with at most 12 integer and 6 fractional digits, got "${String(raw)}"`,
    };
  }
  const integer = match[1].replace(/^0+(?=\d)/, '');
  const fraction = (match[2] ?? '').padEnd(6, '0');
  return { ok: true, value: `${integer}.${fraction}` };
}

/** Canonical DECIMAL text as printed to clients: trailing fractional zeros removed. */
export function formatCredits(decimalText: string): string {
  if (!decimalText.includes('.')) return decimalText;
  const trimmed = decimalText.replace(/0+$/, '').replace(/\.$/, '');
  return trimmed === '-0' ? '0' : trimmed;
}
