/** Longest metadata value compared, in code points (spec: "truncated to 256 characters"). */
export const METADATA_VALUE_MAX_CODE_POINTS = 256;
/** Longest metadata key that is groupable. */
export const METADATA_KEY_MAX_LENGTH = 256;

/** Truncates to a number of Unicode code points, never splitting a surrogate pair. */
export function truncateCodePoints(text: string, max = METADATA_VALUE_MAX_CODE_POINTS): string {
  if (text.length <= max) return text;
  let count = 0;
  let end = 0;
  for (const char of text) {
    if (count === max) break;
    end += char.length;
    count++;
  }
  return text.slice(0, end);
}

/**
 * A metadata value as compared text: strings as they are, numbers and booleans as their
 * JSON text (`7`, `1.5`, `true`). Objects, arrays and null are not groupable (undefined).
 */
export function groupableText(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return truncateCodePoints(value);
    case 'number':
      return Number.isFinite(value) ? truncateCodePoints(JSON.stringify(value)) : undefined;
    case 'boolean':
      return value ? 'true' : 'false';
    default:
      return undefined;
  }
}

/** The groupable entries of an async.metadata object. */
export function groupableEntries(metadata: Record<string, unknown>): Record<string, string> {
  const entries: Record<string, string> = {};
  for (const [key, value] of Object.entries(metadata)) {
    if (key.length === 0 || key.length > METADATA_KEY_MAX_LENGTH) continue;
    const text = groupableText(value);
    if (text !== undefined) entries[key] = text;
  }
  return entries;
}
