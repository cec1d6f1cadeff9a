import { convert } from 'html-to-text';
import { checkHtmlDepth } from './markup-depth.js';

const OPTIONS = {
  wordwrap: false as const,
  selectors: [
    { selector: 'a', options: { ignoreHref: true } },
    { selector: 'img', format: 'skip' },
    { selector: 'script', format: 'skip' },
    { selector: 'style', format: 'skip' },
    { selector: 'noscript', format: 'skip' },
    { selector: 'template', format: 'skip' },
    { selector: 'svg', format: 'skip' },
    { selector: 'iframe', format: 'skip' },
    { selector: 'h1', options: { uppercase: false } },
    { selector: 'h2', options: { uppercase: false } },
    { selector: 'h3', options: { uppercase: false } },
    { selector: 'table', format: 'dataTable' },
  ],
};

/**
 * Visible text of an HTML document: no tags, scripts, styles or link targets. The converter
 * recurses per element level, so the depth is checked first (DocumentLimitError).
 */
export function htmlToText(html: string): string {
  checkHtmlDepth(html);
  return convert(html, OPTIONS)
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}
