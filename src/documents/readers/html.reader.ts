import { convert, type FormatCallback } from 'html-to-text';
import { checkHtmlDepth } from './markup-depth.js';

/**
 * How headings come out of the text: `plain` as their words (what classification and
 * extraction read), `marked` behind Markdown's `#` marks of their level, so the layout of a
 * format without type sizes (HTML, DOCX) can tell a heading as it does in Markdown.
 */
export type HeadingMarks = 'plain' | 'marked';

const HEADING_LEVELS = [1, 2, 3, 4, 5, 6] as const;

/** The built-in heading format, behind `level` marks (words upper-cased as the plain text has them). */
const markedHeading: FormatCallback = (elem, walk, builder, options) => {
  builder.openBlock({ leadingLineBreaks: 2 });
  builder.addInline(`${'#'.repeat(Number(options.level))} `, { noWordTransform: true });
  if (options.uppercase !== false) builder.pushWordTransform((word) => word.toUpperCase());
  walk(elem.children, builder);
  if (options.uppercase !== false) builder.popWordTransform();
  builder.closeBlock({ trailingLineBreaks: 2 });
};

function optionsFor(headings: HeadingMarks) {
  return {
    wordwrap: false as const,
    formatters: { markedHeading },
    selectors: [
      { selector: 'a', options: { ignoreHref: true } },
      { selector: 'img', format: 'skip' },
      { selector: 'script', format: 'skip' },
      { selector: 'style', format: 'skip' },
      { selector: 'noscript', format: 'skip' },
      { selector: 'template', format: 'skip' },
      { selector: 'svg', format: 'skip' },
      { selector: 'iframe', format: 'skip' },
      // The first three levels keep their case; the others are upper-cased as by default.
      ...HEADING_LEVELS.map((level) => ({
        selector: `h${level}`,
        ...(headings === 'marked' ? { format: 'markedHeading' } : {}),
        options: { level, ...(level <= 3 ? { uppercase: false } : {}) },
      })),
      { selector: 'table', format: 'dataTable' },
    ],
  };
}

const OPTIONS = { plain: optionsFor('plain'), marked: optionsFor('marked') };

/**
 * Visible text of an HTML document: no tags, scripts, styles or link targets. The converter
 * recurses per element level, so the depth is checked first (DocumentLimitError).
 */
export function htmlToText(html: string, headings: HeadingMarks = 'plain'): string {
  checkHtmlDepth(html);
  return convert(html, OPTIONS[headings])
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
