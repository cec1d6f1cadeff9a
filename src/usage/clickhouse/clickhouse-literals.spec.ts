import { describe, expect, it } from '@jest/globals';
import { bindParams, stringLiteral } from './clickhouse-literals.js';

describe('ClickHouse parameter binding', () => {
  it('escapes quotes, backslashes and control characters so a value stays one literal', () => {
    expect(stringLiteral("a'b\\c")).toBe("'a\\'b\\\\c'");
    expect(stringLiteral('x\ny\tz\r\0')).toBe("'x\\ny\\tz\\r\\0'");
    expect(stringLiteral("'); DROP TABLE t; --")).toBe("'\\'); DROP TABLE t; --'");
    expect(stringLiteral('Zürich 🚀')).toBe("'Zürich 🚀'");
  });

  it('binds typed placeholders and checks each value against its type', () => {
    expect(
      bindParams('SELECT {a:String}, {d:Date}, {n:UInt64}, {l:Array(String)}', {
        a: "o'k",
        d: '2026-01-31',
        n: 42,
        l: ['x', "y'"],
      }),
    ).toBe("SELECT 'o\\'k', toDate('2026-01-31'), toUInt64(42), ['x', 'y\\'']");
    expect(() => bindParams('{d:Date}', { d: "2026-01-01'" })).toThrow('yyyy-mm-dd');
    expect(() => bindParams('{n:UInt64}', { n: '1 OR 1' })).toThrow('integer');
    expect(() => bindParams('{a:String}', {})).toThrow('no value for parameter a');
    expect(() => bindParams('{a:String}', { a: ['x'] })).toThrow('must not be an array');
    expect(bindParams('{a:Nullable(String)}, {b:Nullable(String)}', { a: null, b: 'x' })).toBe(
      "NULL, 'x'",
    );
    expect(() => bindParams('{a:String}', { a: null })).toThrow('must not be null');
  });
});
