/*
 * Query parameters for ClickHouse statements. Statements are written with ClickHouse's own
 * placeholders, `{name:Type}`, and the values are bound here as typed literals before the
 * statement is sent: the HTTP interface of the 18.x servers (Debian's package) knows no
 * query parameters (`param_name` is refused as an unknown setting), so the client's
 * `query_params` cannot be used there. Every value is checked against its declared type,
 * and strings are escaped as ClickHouse's lexer reads them, so a value never becomes SQL.
 */

export type ClickHouseParam = string | number | bigint | readonly string[] | null;
export type ClickHouseParams = Record<string, ClickHouseParam>;

const PLACEHOLDER = /\{([A-Za-z_][A-Za-z0-9_]*):([A-Za-z0-9_(), ]+)\}/g;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const INTEGER = /^-?\d{1,20}$/;

/** A string literal: backslash and quote escaped, control characters as escapes. */
export function stringLiteral(value: string): string {
  let out = "'";
  for (const ch of value) {
    switch (ch) {
      case '\\':
        out += '\\\\';
        break;
      case "'":
        out += "\\'";
        break;
      case '\n':
        out += '\\n';
        break;
      case '\r':
        out += '\\r';
        break;
      case '\t':
        out += '\\t';
        break;
      case '\0':
        out += '\\0';
        break;
      default:
        out += ch;
    }
  }
  return `${out}'`;
}

function literal(name: string, type: string, value: ClickHouseParam): string {
  const nullable = /^Nullable\((.+)\)$/.exec(type);
  if (nullable) return value === null ? 'NULL' : literal(name, nullable[1], value);
  if (value === null) throw new TypeError(`parameter ${name} must not be null`);
  const array = /^Array\((.+)\)$/.exec(type);
  if (array) {
    if (!Array.isArray(value)) throw new TypeError(`parameter ${name} must be an array`);
    return `[${value.map((item: string) => literal(name, array[1], item)).join(', ')}]`;
  }
  if (Array.isArray(value)) throw new TypeError(`parameter ${name} must not be an array`);
  const text = String(value);
  if (type === 'String') {
    if (typeof value !== 'string') throw new TypeError(`parameter ${name} must be a string`);
    return stringLiteral(text);
  }
  if (type === 'Date') {
    if (!DATE.test(text)) throw new TypeError(`parameter ${name} must be a yyyy-mm-dd date`);
    return `toDate('${text}')`;
  }
  if (/^U?Int(8|16|32|64)$/.test(type)) {
    if (!INTEGER.test(text)) throw new TypeError(`parameter ${name} must be an integer`);
    return `to${type}(${text})`;
  }
  if (type === 'Float64') {
    if (typeof value !== 'number' || !Number.isFinite(value))
      throw new TypeError(`parameter ${name} must be a finite number`);
    return `toFloat64(${text})`;
  }
  throw new TypeError(`parameter ${name} has an unsupported type ${type}`);
}

/** The statement with every `{name:Type}` replaced by its value's literal. */
export function bindParams(sql: string, params: ClickHouseParams = {}): string {
  return sql.replace(PLACEHOLDER, (_, name: string, type: string) => {
    if (!(name in params)) throw new TypeError(`no value for parameter ${name}`);
    return literal(name, type.trim(), params[name]);
  });
}
