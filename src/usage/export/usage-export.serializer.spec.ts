import { describe, expect, it } from '@jest/globals';
import { csvField, csvText } from './usage-export.serializer.js';

/** An RFC 4180 field read back: unquoted as is, or quoted with doubled quotes. */
function parsed(field: string): string {
  return field.startsWith('"') ? field.slice(1, -1).replace(/""/g, '"') : field;
}

describe('usage export CSV fields', () => {
  it.each([
    ['plain', 'plain'],
    ['a,b', '"a,b"'],
    ['a;b', '"a;b"'],
    ['say "hi"', '"say ""hi"""'],
    ['line\nbreak', '"line\nbreak"'],
    ['carriage\rreturn', '"carriage\rreturn"'],
    ['tab\tinside', '"tab\tinside"'],
  ])('quotes %j as RFC 4180 requires', (value, field) => {
    expect(csvField(value)).toBe(field);
    expect(parsed(csvField(value))).toBe(value);
  });

  it.each([
    ['=1+1', "'=1+1"],
    ['+1', "'+1"],
    ['-1', "'-1"],
    ['@SUM(A1)', "'@SUM(A1)"],
    [' =1+1', "' =1+1"],
    ['\u00a0\u2003@cmd', "'\u00a0\u2003@cmd"],
    ['\t=1', '"\'\t=1"'],
    ['\rx', '"\'\rx"'],
    ['a;=1+1', '"a;=1+1"'],
    ['=1;2', `"'=1;2"`],
  ])('guards %j against formula injection as %j', (value, field) => {
    expect(csvText(value)).toBe(field);
  });

  it.each(['team-a', 'a=b', 'user@example.com', '1.5', ' plain'])(
    'leaves %j, which no spreadsheet reads as a formula, unprefixed',
    (value) => {
      expect(parsed(csvText(value))).toBe(value);
    },
  );
});
