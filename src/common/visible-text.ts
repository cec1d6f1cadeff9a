/**
 * Blank text, defined once: the processing API's names (refused, and so described in the
 * API description) and the dashboard's optional labels (kept as none).
 */

/**
 * What reads as nothing: white space, format characters such as U+200B or U+FEFF, marks with
 * no base character and control characters all render as nothing, so a name of only those
 * reads as blank however many code points it has. The one definition of blank: the check
 * and the API description both come from it.
 */
const INVISIBLE_CLASS = '\\p{White_Space}\\p{Default_Ignorable_Code_Point}\\p{M}\\p{Cc}';
const INVISIBLE_CHARACTER = new RegExp(`[${INVISIBLE_CLASS}]`, 'u');
const VISIBLE_CHARACTER = new RegExp(`[^${INVISIBLE_CLASS}]`, 'u');

const LAST_CODE_POINT = 0x10ffff;

/** U+D800..U+DFFF: halves of a pair, no characters of their own (nor in a Python pattern). */
function isSurrogate(codePoint: number): boolean {
  return codePoint >= 0xd800 && codePoint <= 0xdfff;
}

/**
 * A code point in a pattern every reader of the description takes alike: `\uXXXX` in the
 * basic plane (JSON Schema's ECMA-262, Python's `re`, Rust's `regex`), the character itself
 * above it (ECMA-262 without the `u` flag has no escape for it, Python none of ECMA's).
 */
function patternCodePoint(codePoint: number): string {
  return codePoint > 0xffff
    ? String.fromCodePoint(codePoint)
    : `\\u${codePoint.toString(16).toUpperCase().padStart(4, '0')}`;
}

/**
 * `INVISIBLE_CHARACTER` spelt out as code point ranges, negated: a character a reader sees.
 * Listed rather than written with `\p{...}`, which OpenAPI fuzzers and generators translate
 * to narrower classes or not at all. Built from the regular expression of the running
 * Unicode version, so it cannot drift from the check; on first use, as it takes 60 to 150 ms
 * (a process that describes no request, such as docproc-admin's, never builds it).
 */
function visibleCharacterPattern(): string {
  const ranges: string[] = [];
  let start = -1;
  for (let codePoint = 0; codePoint <= LAST_CODE_POINT + 1; codePoint++) {
    const invisible =
      codePoint <= LAST_CODE_POINT &&
      !isSurrogate(codePoint) &&
      INVISIBLE_CHARACTER.test(String.fromCodePoint(codePoint));
    if (invisible && start < 0) start = codePoint;
    if (!invisible && start >= 0) {
      const end = codePoint - 1;
      ranges.push(
        start === end
          ? patternCodePoint(start)
          : `${patternCodePoint(start)}-${patternCodePoint(end)}`,
      );
      start = -1;
    }
  }
  return `[^${ranges.join('')}]`;
}

let visibleTextPatternBuilt: string | null = null;

/**
 * The `pattern` of a name that is not blank, as the description states it: it matches
 * where `hasVisibleCharacter` is true (a JSON Schema pattern matches anywhere).
 */
export function visibleTextPattern(): string {
  visibleTextPatternBuilt ??= visibleCharacterPattern();
  return visibleTextPatternBuilt;
}

/**
 * The `pattern` that a property decorator (`@ApiProperty`) writes for a name that must not
 * be blank: decorators run when a module loads, so they name the pattern by this mark and
 * the API description puts the pattern itself in when it is built
 * (`withVisibleTextPatterns`), never in a process that describes nothing.
 */
export const VISIBLE_TEXT_PATTERN_MARK = '[visible text]';

/** `schemas` with each `pattern` that is the mark replaced by the pattern it stands for. */
export function withVisibleTextPatterns(schemas: Record<string, unknown>): void {
  for (const schema of Object.values(schemas)) {
    const properties = (schema as { properties?: Record<string, { pattern?: string }> }).properties;
    for (const property of Object.values(properties ?? {})) {
      if (property.pattern === VISIBLE_TEXT_PATTERN_MARK) property.pattern = visibleTextPattern();
    }
  }
}

/** Whether `text` holds a character a reader sees: a name of none reads as blank. */
export function hasVisibleCharacter(text: string): boolean {
  return VISIBLE_CHARACTER.test(text);
}

/**
 * An optional label as kept: trimmed, and none when nothing of it is visible (the blanks of
 * `INVISIBLE_CHARACTER`, not only white space).
 */
export function labelOrNull(label: string | null | undefined): string | null {
  const trimmed = label?.trim() ?? '';
  return hasVisibleCharacter(trimmed) ? trimmed : null;
}
