import { attribute, child, childrenNamed, parseXml } from './office-xml.js';

/** Built-in number formats that show a date or a time (ECMA-376 18.8.30, and the East Asian ones). */
const BUILT_IN_DATE_FORMATS = new Set([
  14, 15, 16, 17, 18, 19, 20, 21, 22, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36, 45, 46, 47, 50, 51,
  52, 53, 54, 55, 56, 57, 58,
]);
const BUILT_IN_PERCENT_FORMATS = new Set([9, 10]);
const MILLISECONDS_PER_DAY = 86_400_000;

/** How a cell's number is shown, by the number format of its style. */
export type NumberKind = 'number' | 'date' | 'time' | 'percent';

/** A format code without its quoted text, escaped characters, colours and conditions. */
function formatTokens(code: string): string {
  return code
    .split(';')[0]
    .replace(/"[^"]*"/g, '')
    .replace(/\\./g, '')
    .replace(/\[(?![hms]+\])[^\]]*\]/gi, '')
    .replace(/_.|\*./g, '');
}

function kindOfCode(code: string): NumberKind {
  const tokens = formatTokens(code);
  if (/[dy]/i.test(tokens) || (/m/i.test(tokens) && !/[hs]/i.test(tokens))) return 'date';
  if (/[hs]/i.test(tokens)) return 'time';
  if (tokens.includes('%')) return 'percent';
  return 'number';
}

/**
 * The kind of number each cell style (`s`, an index into `cellXfs`) shows, from a
 * workbook's styles part; styles it does not list show plain numbers.
 */
export function numberKinds(stylesXml: string | undefined): NumberKind[] {
  if (stylesXml === undefined) return [];
  const styles = parseXml(stylesXml);
  const custom = new Map<number, string>();
  for (const format of childrenNamed(child(styles, 'numFmts'), 'numFmt')) {
    custom.set(Number(attribute(format, 'numFmtId')), attribute(format, 'formatCode') ?? '');
  }
  return childrenNamed(child(styles, 'cellXfs'), 'xf').map((style) => {
    const id = Number(attribute(style, 'numFmtId') ?? 0);
    const code = custom.get(id);
    if (code !== undefined) return kindOfCode(code);
    if (BUILT_IN_DATE_FORMATS.has(id)) return id >= 18 && id <= 21 ? 'time' : 'date';
    if (BUILT_IN_PERCENT_FORMATS.has(id)) return 'percent';
    return 'number';
  });
}

const pad = (n: number, width = 2) => String(n).padStart(width, '0');

/**
 * A date serial as the date (and time of day, when it has one) it stands for, in ISO form.
 * The 1900 date system counts 1900 as a leap year (as Lotus 1-2-3 did): serials from 61 on
 * are days since 1899-12-30, earlier ones since 1899-12-31.
 */
export function serialDate(serial: number, kind: 'date' | 'time', date1904: boolean): string {
  const epoch = date1904 ? Date.UTC(1904, 0, 1) : Date.UTC(1899, 11, serial < 61 ? 31 : 30);
  const when = new Date(epoch + Math.round((serial * MILLISECONDS_PER_DAY) / 1000) * 1000);
  if (Number.isNaN(when.getTime())) return String(serial);
  const day = `${pad(when.getUTCFullYear(), 4)}-${pad(when.getUTCMonth() + 1)}-${pad(when.getUTCDate())}`;
  const seconds = when.getUTCSeconds();
  const clock = `${pad(when.getUTCHours())}:${pad(when.getUTCMinutes())}${seconds ? `:${pad(seconds)}` : ''}`;
  if (kind === 'time' && serial < 1) return clock;
  return serial % 1 === 0 ? day : `${day} ${clock}`;
}

/** The number as its cell shows it: a date, a time or a percentage by its style, else as stored. */
export function shownNumber(value: string, kind: NumberKind, date1904: boolean): string {
  const number = Number(value);
  if (value.trim() === '' || !Number.isFinite(number) || kind === 'number') return value;
  if (kind === 'percent') return `${Number((number * 100).toPrecision(12))}%`;
  return serialDate(number, kind, date1904);
}
