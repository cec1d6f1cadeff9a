/**
 * Markdown read as its rendering shows it, for the text classification reads: link text
 * without its target, no images (their path and alt text are not the page's words, as an
 * HTML page's images are skipped), no emphasis or code marks, no link reference
 * definitions, fences, rules, HTML tags (one spread over lines too) and comments or a static
 * site's template tags, block quotes without their marks, front matter as a renderer shows
 * it (its title and description, not its settings), tables as rows of cells set apart by
 * " | " (the delimiter row dropped). What a layout reading measures stays: headings keep
 * their `#` marks (a setext heading gets them) and list items their markers; neither is a
 * word of the passages classification embeds.
 *
 * A small reader of CommonMark's and GitHub's constructs written for this, not a full
 * parser (no package in the dependencies reads Markdown): inline spans are matched within a
 * bounded length, so a line of unclosed marks costs linear time.
 */
import { frontMatterEnd, frontMatterText } from './front-matter.js';
import { readPipeTables } from './pipe-tables.js';

/** Longest inline span (emphasis, link text, code) matched. */
const SPAN = 500;
const FENCE = /^ {0,3}(`{3,}|~{3,})/;
const ATX_HEADING = /^ {0,3}(#{1,6})(?:[ \t]+(.*?))?(?:[ \t]+#+)?[ \t]*$/;
const SETEXT_UNDERLINE = /^ {0,3}(=+|-+)[ \t]*$/;
const THEMATIC_BREAK = /^ {0,3}([-*_])(?:[ \t]*\1){2,}[ \t]*$/;
const REFERENCE_DEFINITION =
  /^ {0,3}\[(?!\^)[^\]]{1,999}\]:[ \t]*\S+(?:[ \t]+(?:"[^"]*"|'[^']*'|\([^)]*\)))?[ \t]*$/;
const FOOTNOTE_DEFINITION = /^( {0,3})\[\^[^\]]{1,999}\]:[ \t]*/;
const BLOCK_QUOTE = /^( {0,3}>[ \t]?)+/;
const LIST_OR_QUOTE_OR_HEADING = /^ {0,3}([-+*]|\d{1,9}[.)]|#{1,6}|>)(?:[ \t]|$)/;

/** Protected text (code spans, escaped characters) stands in the line as a private-use mark. */
const HOLDER = 0xf0000;
const HELD = /[\u{f0000}-\u{fffff}]/gu;
const HOLDS_MARK = /[\u{f0000}-\u{fffff}]/u;
/** A line of HTML tags only (`<p align="center">`, `<img src=...>`, `</div>`): no text of it is shown. */
const TAGS_ONLY = /^\s*(?:<\/?[A-Za-z][A-Za-z0-9-]{0,30}(?:\s[^<>]{0,2000})?\/?>\s*)+$/;

const SPAN_PATTERNS: [RegExp, string][] = [
  // Images (inline and by reference) are dropped whole; a badge inside a link goes with it.
  [new RegExp(String.raw`!\[[^\]\n]{0,${SPAN}}\]\([^)\n]{0,${SPAN}}\)`, 'g'), ''],
  [new RegExp(String.raw`!\[[^\]\n]{0,${SPAN}}\]\[[^\]\n]{0,${SPAN}}\]`, 'g'), ''],
  // Links: their text; the target (and a title) is no word of the page.
  [
    new RegExp(
      String.raw`\[([^\]\n]{0,${SPAN}})\]\((?:[^()\n]|\([^()\n]{0,${SPAN}}\)){0,${SPAN}}\)`,
      'g',
    ),
    '$1',
  ],
  [/\[\^[^\]\n]{1,100}\]/g, ''],
  [new RegExp(String.raw`\[([^\]\n]{1,${SPAN}})\]\[[^\]\n]{0,${SPAN}}\]`, 'g'), '$1'],
  // Autolinks show their address.
  [/<((?:https?|ftp|mailto):[^<>\s]{1,2000}|[^<>\s@]{1,200}@[^<>\s@]{1,200})>/g, '$1'],
  // HTML comments on a line and tags (their text stays).
  [/<!--.{0,2000}?-->/g, ''],
  [/<\/?[A-Za-z][A-Za-z0-9-]{0,30}(?:\s[^<>\n]{0,2000})?\/?>/g, ''],
  // Emphasis: strong before emphasis, so "***x***" loses all its marks.
  [new RegExp(String.raw`(\*\*|__)(?=\S)(.{1,${SPAN}}?)(?<=\S)\1`, 'gu'), '$2'],
  [new RegExp(String.raw`~~(?=\S)(.{1,${SPAN}}?)(?<=\S)~~`, 'gu'), '$1'],
  [new RegExp(String.raw`\*(?=[^\s*])([^*\n]{0,${SPAN}}?)(?<=[^\s*])\*`, 'gu'), '$1'],
  // An underscore inside a word (snake_case) is no emphasis.
  [
    new RegExp(
      String.raw`(?<![\p{L}\p{N}_])_(?=[^\s_])([^_\n]{0,${SPAN}}?)(?<=[^\s_])_(?![\p{L}\p{N}_])`,
      'gu',
    ),
    '$1',
  ],
];

/** One line's inline Markdown as shown: code spans and escaped characters as written. */
export function inlineText(line: string): string {
  // A line already holding such marks is left as written rather than misread.
  if (HOLDS_MARK.test(line)) return line;
  const held: string[] = [];
  const hold = (text: string) => String.fromCodePoint(HOLDER + held.push(text) - 1);
  let text = line
    .replace(
      new RegExp(String.raw`(\`+)(.{1,${SPAN}}?)(?<!\`)\1(?!\`)`, 'g'),
      (_, _ticks, code: string) => hold(code.trim()),
    )
    .replace(/\\([!-/:-@[-`{-~])/g, (_, character: string) => hold(character));
  for (const [pattern, replacement] of SPAN_PATTERNS) text = text.replace(pattern, replacement);
  return text.replace(HELD, (mark) => held[mark.codePointAt(0)! - HOLDER] ?? '');
}

/** A run of lines outside code blocks, read block by block. */
function readBlocks(lines: readonly string[], out: string[]): void {
  let paragraph = false;
  for (const line of readPipeTables(lines)) {
    if ('cells' in line) {
      out.push(line.cells.map(inlineText).join(' | '));
      paragraph = false;
      continue;
    }
    const quoted = line.text.replace(BLOCK_QUOTE, '');
    const underline = SETEXT_UNDERLINE.exec(quoted);
    if (underline && paragraph) {
      out[out.length - 1] = `${underline[1].startsWith('=') ? '#' : '##'} ${out.at(-1)}`;
      paragraph = false;
      continue;
    }
    if (THEMATIC_BREAK.test(quoted) || REFERENCE_DEFINITION.test(quoted)) {
      paragraph = false;
      continue;
    }
    const heading = ATX_HEADING.exec(quoted);
    if (heading) {
      out.push(`${heading[1]} ${inlineText(heading[2] ?? '')}`.trimEnd());
      paragraph = false;
      continue;
    }
    const text = inlineText(quoted.replace(FOOTNOTE_DEFINITION, '$1'));
    out.push(text);
    paragraph = text.trim() !== '' && !LIST_OR_QUOTE_OR_HEADING.test(quoted);
  }
}

/**
 * Template tags of a static site's page (Liquid's and Jinja's `{% include base_path %}`,
 * `{{ site.title }}`, `{# note #}`, Hugo's `{{< figure >}}`): the site fills them in when it
 * builds, so what they show is not in the file, and their names are no words of the page.
 * A `raw` block shows its text as written, a `comment` block nothing; a code span is kept.
 */
const TEMPLATE_TAG = new RegExp(
  [
    String.raw`(\`+)[^\`\n]{1,${SPAN}}?\1`,
    String.raw`\{%-?\s*raw\s*-?%\}([\s\S]{0,${SPAN * 4}}?)\{%-?\s*endraw\s*-?%\}`,
    String.raw`\{%-?\s*comment\s*-?%\}[\s\S]{0,${SPAN * 4}}?\{%-?\s*endcomment\s*-?%\}`,
    String.raw`\{%[\s\S]{0,${SPAN}}?%\}`,
    String.raw`\{\{[^{}]{0,${SPAN}}\}\}`,
    String.raw`\{#[^#]{0,${SPAN}}#\}`,
  ].join('|'),
  'g',
);
/**
 * An HTML tag whose attributes run over lines (CommonMark's open tag: a name, attributes,
 * whitespace that may hold line ends): read as one line, the tag it is, not as words.
 */
const SPREAD_TAG = new RegExp(
  String.raw`<[A-Za-z][A-Za-z0-9-]{0,30}(?:\s+[A-Za-z_:][\w.:-]{0,60}(?:\s*=\s*(?:"[^"]{0,${SPAN}}"|'[^']{0,${SPAN}}'|[^\s"'=<>\`]{1,${SPAN}}))?){0,60}\s*\/?>`,
  'g',
);

function withoutTemplateTags(text: string): string {
  return text.replace(TEMPLATE_TAG, (tag: string, ticks?: string, raw?: string) =>
    ticks ? tag : (raw ?? ''),
  );
}

/**
 * Lines outside fenced code with template tags dropped and HTML tags spread over lines set
 * on one (code in a fence shows its tags as written).
 */
function renderedLines(lines: readonly string[]): string[] {
  const out: string[] = [];
  let run: string[] = [];
  const flush = () => {
    if (run.length === 0) return;
    const text = withoutTemplateTags(run.join('\n')).replace(SPREAD_TAG, (tag) =>
      // A blank line ends an HTML block in CommonMark: no tag runs over one.
      tag.includes('\n') && !/\n[ \t]*\n/.test(tag) ? tag.replace(/\s*\n\s*/g, ' ') : tag,
    );
    out.push(...text.split('\n'));
    run = [];
  };
  let fence: string | undefined;
  for (const line of lines) {
    const marks = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marks && marks[0] === fence[0] && marks.length >= fence.length && line.trim() === marks) {
        fence = undefined;
      }
      out.push(line);
      continue;
    }
    if (marks) {
      flush();
      fence = marks;
      out.push(line);
      continue;
    }
    run.push(line);
  }
  flush();
  return out;
}

/** HTML comments, which may run over lines, dropped (an unclosed one runs to the end). */
export function withoutComments(text: string): string {
  let out = '';
  let at = 0;
  for (let open = text.indexOf('<!--'); open >= 0; open = text.indexOf('<!--', at)) {
    out += text.slice(at, open);
    const close = text.indexOf('-->', open + 4);
    if (close < 0) return out;
    // The lines a comment spans stay, empty, so the text keeps its lines.
    out += '\n'.repeat(text.slice(open, close).split('\n').length - 1);
    at = close + 3;
  }
  return out + text.slice(at);
}

/** A Markdown page's text as its rendering shows it (see the top of the file). */
export function markdownText(markdown: string): string {
  const lines = renderedLines(withoutComments(markdown).split('\n'));
  const out: string[] = [];
  const end = frontMatterEnd(lines);
  if (end > 0) out.push(...frontMatterText(lines.slice(1, end)));
  let run: string[] = [];
  let fence: string | undefined;
  for (const line of lines.slice(end + 1)) {
    const marks = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marks && marks[0] === fence[0] && marks.length >= fence.length && line.trim() === marks) {
        fence = undefined;
      } else out.push(line);
      continue;
    }
    if (marks) {
      readBlocks(run, out);
      run = [];
      fence = marks;
      continue;
    }
    run.push(line);
  }
  readBlocks(run, out);
  return out.join('\n');
}

/**
 * A Markdown page as parse reads it: as written (its marks are what layout reads headings and
 * tables by) but for what a renderer never shows as text: front matter's settings (its shown
 * fields stay, the title as a heading), template tags, HTML comments and lines made of HTML
 * tags only (a tag spread over lines set on one).
 */
export function markdownSource(markdown: string): string {
  const lines = renderedLines(withoutComments(markdown).split('\n'));
  const end = frontMatterEnd(lines);
  const body = lines.slice(end + 1);
  let fence: string | undefined;
  const kept = body.filter((line) => {
    const marks = FENCE.exec(line)?.[1];
    if (fence !== undefined) {
      if (marks && marks[0] === fence[0] && line.trim() === marks) fence = undefined;
      return true;
    }
    if (marks) fence = marks;
    return !TAGS_ONLY.test(line);
  });
  return [...(end > 0 ? frontMatterText(lines.slice(1, end)) : []), ...kept].join('\n');
}
