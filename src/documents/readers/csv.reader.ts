import { enforceLimit } from './document-limits.js';
import type { OfficePage } from './office-blocks.js';

/** Delimiters a CSV file is written with, in the order a tie is decided. */
const DELIMITERS = [',', ';', '\t', '|'] as const;
/** Records the delimiter is chosen on. */
const SAMPLE_RECORDS = 50;

/**
 * Splits CSV text into records of fields (RFC 4180: fields in double quotes may hold the
 * delimiter, line breaks and doubled quotes). `onField` is called for each field, so a
 * caller can stop a file of too many cells as it goes; `maxRecords` stops early.
 */
function splitRecords(
  text: string,
  delimiter: string,
  maxRecords = Infinity,
  onField: () => void = () => undefined,
): string[][] {
  const records: string[][] = [];
  let record: string[] = [];
  let field = '';
  let quoted = false;
  let i = 0;
  const endField = () => {
    onField();
    record.push(field);
    field = '';
  };
  const endRecord = () => {
    endField();
    records.push(record);
    record = [];
  };
  while (i < text.length && records.length < maxRecords) {
    const char = text[i];
    if (quoted) {
      if (char === '"' && text[i + 1] === '"') {
        field += '"';
        i += 2;
        continue;
      }
      if (char === '"') quoted = false;
      else field += char;
      i++;
      continue;
    }
    if (char === '"' && field.trim() === '') {
      quoted = true;
      field = '';
    } else if (char === delimiter) endField();
    else if (char === '\n' || char === '\r') {
      endRecord();
      if (char === '\r' && text[i + 1] === '\n') i++;
    } else field += char;
    i++;
  }
  if (records.length < maxRecords && (field !== '' || record.length > 0)) endRecord();
  return records;
}

/**
 * The delimiter the file is written with: of comma, semicolon, tab and bar, the one that
 * splits the first records into the same number of fields (two or more) most often, more
 * fields breaking a tie. A tab when a `.tsv` name says so and tabs split it at all; a comma
 * when nothing splits it (one column).
 */
export function detectDelimiter(text: string, preferTab = false): string {
  let best: { delimiter: string; share: number; fields: number } | undefined;
  for (const delimiter of DELIMITERS) {
    const records = splitRecords(text, delimiter, SAMPLE_RECORDS).filter(
      (record) => !(record.length === 1 && record[0].trim() === ''),
    );
    const counts = new Map<number, number>();
    for (const record of records) counts.set(record.length, (counts.get(record.length) ?? 0) + 1);
    let fields = 1;
    let most = 0;
    for (const [count, times] of counts) {
      if (times > most || (times === most && count > fields)) [fields, most] = [count, times];
    }
    if (fields < 2) continue;
    if (preferTab && delimiter === '\t') return delimiter;
    const share = most / Math.max(1, records.length);
    if (!best || share > best.share || (share === best.share && fields > best.fields)) {
      best = { delimiter, share, fields };
    }
  }
  return best?.delimiter ?? ',';
}

/**
 * A CSV or TSV file as one page holding one table: its records as rows (short ones padded,
 * blank lines left out), the first as the header. Its cells, and the rows times the widest
 * row, count against MAX_SHEET_CELLS (DocumentLimitError past it, while splitting).
 */
export function csvPages(text: string, preferTab = false): OfficePage[] {
  const normalized = text.replace(/^\uFEFF/, '');
  const delimiter = detectDelimiter(normalized, preferTab);
  let cells = 0;
  const records = splitRecords(normalized, delimiter, Infinity, () => {
    cells++;
    enforceLimit('maxSheetCells', cells, (max) => `The CSV file holds more than ${max} cells`);
  })
    .map((record) => record.map((field) => field.trim()))
    .filter((record) => record.some((field) => field !== ''));
  const width = records.reduce((widest, record) => Math.max(widest, record.length), 0);
  const spanned = records.length * width;
  enforceLimit(
    'maxSheetCells',
    spanned,
    (max) =>
      `The CSV file spans ${records.length} rows by ${width} columns (${spanned} cells); at most ${max} are read`,
  );
  const rows = records.map((record) =>
    Array.from({ length: width }, (_, column) => record[column] ?? ''),
  );
  return [{ blocks: rows.length > 0 ? [{ kind: 'table', rows }] : [] }];
}
