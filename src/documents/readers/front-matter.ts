/**
 * YAML front matter of a Markdown file (`---` lines around it at the top), read as a renderer
 * shows it: pandoc's title block and a static site's page show the document's title,
 * subtitle, author, date, abstract or description and its tags, keywords or categories and
 * nothing else, while the other keys
 * set up the engine, the layout or the site (`pdf-engine: xelatex`, `geometry: margin=1.5cm`,
 * `layout: post`), none of them a word of the document. The shown fields are the metadata
 * fields of these formats (Dublin Core's title, creator, date, description and subject),
 * whatever the document is about.
 */

/** Keys whose values a renderer shows as the document's text, the title first. */
const SHOWN_KEYS = new Set([
  'title',
  'subtitle',
  'author',
  'authors',
  'date',
  'abstract',
  'description',
  'summary',
  'tags',
  'keywords',
  'categories',
]);
const KEY_LINE = /^([A-Za-z][\w-]*)[ \t]*:(?:[ \t]+(.*?))?[ \t]*$/;
/** A block scalar's indicator (`|`, `>-`, ...): its text is on the indented lines after. */
const BLOCK_SCALAR = /^[|>][+-]?\d?$/;

/** A line of a YAML mapping's top level: a key, a comment, or nothing. */
const TOP_LEVEL_LINE = /^(?:[A-Za-z][\w-]*[ \t]*:(?:[ \t].*)?|#.*|[ \t]*)$/;

/**
 * The line a front matter block ends on (`---` or `...`), -1 without one. A block whose
 * first line is no YAML key is a rule and text after it, not front matter.
 */
export function frontMatterEnd(lines: readonly string[]): number {
  if (lines[0]?.trim() !== '---') return -1;
  for (let i = 1; i < Math.min(lines.length, 200); i++) {
    if (lines[i].trim() === '---' || lines[i].trim() === '...') {
      const body = lines.slice(1, i);
      const first = body.find((line) => line.trim() !== '');
      const isYaml =
        first !== undefined &&
        KEY_LINE.test(first) &&
        body.every((line) => /^\s/.test(line) || /^-/.test(line) || TOP_LEVEL_LINE.test(line));
      return isYaml ? i : -1;
    }
  }
  return -1;
}

/** A YAML scalar as text: quotes, a list's brackets and a nested key's name taken off. */
function scalarText(value: string): string {
  let text = value
    .trim()
    .replace(/^-[ \t]+/, '')
    .replace(/^[A-Za-z][\w-]*:[ \t]+/, '');
  if (/^\[.*\]$/.test(text)) text = text.slice(1, -1);
  if (/^(["']).*\1$/.test(text)) text = text.slice(1, -1);
  return BLOCK_SCALAR.test(text) ? '' : text.trim();
}

/**
 * The lines of a front matter block (without its fences) a reader shows, in their order: each
 * shown key's value, with the indented lines of a block scalar or a list under it; the title
 * as a first-level heading, as pandoc sets it.
 */
export function frontMatterText(lines: readonly string[]): string[] {
  const out: string[] = [];
  let shown: string | undefined;
  for (const line of lines) {
    const key = /^\s/.test(line) ? null : KEY_LINE.exec(line);
    if (key) {
      shown = SHOWN_KEYS.has(key[1].toLowerCase()) ? key[1].toLowerCase() : undefined;
      const value = shown ? scalarText(key[2] ?? '') : '';
      if (value !== '') out.push(shown === 'title' ? `# ${value}` : value);
      continue;
    }
    // A line that opens no key belongs to the key before (a block scalar, a list, a nested map).
    if (shown === undefined) continue;
    const value = scalarText(line);
    if (value !== '') out.push(value);
  }
  return out;
}
