/**
 * Pages of a plain-text or Markdown document. A form feed is the one explicit page break
 * plain text has, so it splits pages; otherwise the text is one page.
 */
export function textPages(text: string): string[] {
  const normalized = text.replace(/^\uFEFF/, '').replace(/\r\n?/g, '\n');
  const pages = normalized.split('\f').map((page) => page.trim());
  const kept = pages.filter((page, index) => page !== '' || index === 0);
  return kept.length > 0 ? kept : [''];
}
