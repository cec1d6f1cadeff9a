import { describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';
import { markdownText } from './markdown-text.js';

const pageTexts = async (bytes: Uint8Array, name: string) =>
  (await loadDocument(bytes, name)).pages.map((page) => page.text);

const MARKDOWN = [
  '# Safety *precautions*',
  '',
  'Read the [installation guide](https://example.com/docs/install_guide.html "Guide") and',
  'the **warnings** below. ![Board photo](images/board_v2.png) See <https://example.com>.',
  'Use `config_file` and snake_case_names as written; see [the terms][terms].',
  '',
  '[terms]: https://example.com/terms',
  '',
  '| Symbol | Meaning |',
  '| --- | --- |',
  '|**Warning**|A [hazard](https://example.com/hazard)|',
  '',
  'Device scope',
  '------------',
  '',
  '> *Note:* limits apply.',
  '',
  '```bash',
  'make install',
  '```',
  '<!-- internal',
  'comment -->',
  '- first item',
].join('\n');

describe('Markdown read as rendered for classification', () => {
  it('keeps link text and drops targets, images, emphasis, pipes and fences', async () => {
    const [text] = await pageTexts(Buffer.from(MARKDOWN), 'manual.md');
    expect(text).toBe(
      [
        '# Safety precautions',
        '',
        'Read the installation guide and',
        'the warnings below.  See https://example.com.',
        'Use config_file and snake_case_names as written; see the terms.',
        '',
        '',
        'Symbol | Meaning',
        'Warning | A hazard',
        '',
        '## Device scope',
        '',
        'Note: limits apply.',
        '',
        'make install',
        '',
        '',
        '- first item',
      ].join('\n'),
    );
  });

  it('keeps the marks for parse, whose layout reads headings and tables by them', async () => {
    const document = await loadLayoutDocument(Buffer.from(MARKDOWN), 'manual.md');
    const lines = document.pages[0].lines;
    expect(lines.some((line) => line.segments.length === 2)).toBe(true);
    expect(lines.map((line) => line.text)).toContain('Safety *precautions*');
  });

  it('reads unclosed marks on a long line in linear time', () => {
    const line = '**a [b ` _c '.repeat(20_000);
    const started = performance.now();
    expect(markdownText(line)).toContain('**a [b');
    expect(performance.now() - started).toBeLessThan(5_000);
  });
});

/** A pandoc document: its settings in front matter, a comment and a centred image in HTML. */
const PANDOC = [
  '---',
  'title: "Declaration: of conformity"',
  'pdf-engine: xelatex',
  'geometry: margin=1.5cm',
  'mainfont: Gentium Basic',
  'abstract: |',
  '  The product below meets the directives.',
  'author:',
  '  - name: Ada Lovelace',
  '---',
  '<!-- pandoc declaration.md \\',
  '  -o declaration.pdf -->',
  '<p align="center">',
  '  <img src="board.png" width="300">',
  '</p>',
  '',
  'The <b>product</b> conforms.',
].join('\n');

describe('Markdown front matter, comments and HTML', () => {
  it('reads front matter as a renderer shows it: the title and abstract, not the settings', async () => {
    const [text] = await pageTexts(Buffer.from(PANDOC), 'declaration.md');
    expect(text.split('\n').filter((line) => line.trim() !== '')).toEqual([
      '# Declaration: of conformity',
      'The product below meets the directives.',
      'Ada Lovelace',
      'The product conforms.',
    ]);
  });

  it('gives parse the same title and text, without settings, comments or lines of tags', async () => {
    const document = await loadLayoutDocument(Buffer.from(PANDOC), 'declaration.md');
    expect(document.pages[0].lines.map((line) => line.text)).toEqual([
      'Declaration: of conformity',
      'The product below meets the directives.',
      'Ada Lovelace',
      'The <b>product</b> conforms.',
    ]);
  });

  it('reads a rule and text between two rules at the top as text, not front matter', async () => {
    const ruled = ['---', 'Terms of sale apply.', '---', 'Price: 40 EUR'].join('\n');
    const [text] = await pageTexts(Buffer.from(ruled), 'terms.md');
    expect(text).toContain('Terms of sale apply.');
    expect(text).toContain('Price: 40 EUR');
  });
});

/** A static site's page: Liquid tags, an HTML tag spread over lines, a fence showing a tag. */
const SITE_PAGE = [
  '{% include base_path %}',
  'Published on {{ page.date | date: "%B %Y" }} by the team.',
  '',
  '<img',
  '  src="images/portrait.png"',
  '  alt="Portrait of the author"',
  '  width="200">',
  '',
  '<ul>{% for post in site.publications %}',
  '  {% include archive-single.html %}',
  '{% endfor %}</ul>',
  '{% comment %}',
  'draft note',
  '{% endcomment %}',
  '{# a Jinja note #}Use `{{ site.title }}` for the title; {% raw %}{{ kept }}{% endraw %} here.',
  '',
  '```liquid',
  '{% include footer.html %}',
  '```',
].join('\n');

describe('Markdown template tags and HTML tags over several lines', () => {
  it('drops template tags and reads a tag spread over lines as a tag, not as words', () => {
    const lines = markdownText(SITE_PAGE)
      .split('\n')
      .map((line) => line.trim())
      .filter((line) => line !== '');
    expect(lines).toEqual([
      'Published on  by the team.',
      'Use {{ site.title }} for the title; {{ kept }} here.',
      '{% include footer.html %}',
    ]);
  });

  it('gives parse the page without template tags or the spread tag', async () => {
    const document = await loadLayoutDocument(Buffer.from(SITE_PAGE), 'cv.md');
    const text = document.pages[0].lines.map((line) => line.text).join('\n');
    expect(text).toContain('Published on  by the team.');
    expect(text).not.toMatch(/base_path|site\.publications|endfor|draft note|Jinja|Portrait|src=/);
    expect(text).toContain('{{ kept }} here.');
    expect(text).toContain('{% include footer.html %}');
  });

  it('keeps text with a "<" before a letter that is no tag', () => {
    expect(markdownText('if a <b then\n\nc> d holds')).toBe('if a <b then\n\nc> d holds');
  });
});
