import { describe, expect, it } from '@jest/globals';
import { loadLayoutDocument } from '../parse/layout.loader.js';
import { loadDocument } from './document.loader.js';
import { restructuredText } from './restructured-text.js';

const MANUAL = [
  '.. _troubleshooting:',
  '',
  '===============',
  'Troubleshooting',
  '===============',
  '',
  'See :ref:`the install guide <install>` and `the wiki <https://example.com/wiki>`_.',
  'Run ``hackrf_info`` first.',
  '',
  '.. figure:: ../images/dc_spike.png',
  '   :align: center',
  '   :width: 400px',
  '',
  '   A spike at the centre frequency.',
  '',
  '.. note:: Unplug the board first',
  '',
  '.. |logo| image:: logo.png',
  '.. this comment is for the editors',
  '   and so is this line',
  '',
  'The end.',
].join('\n');
const SHOWN = [
  '',
  '===============',
  'Troubleshooting',
  '===============',
  '',
  'See the install guide and the wiki.',
  'Run hackrf_info first.',
  '',
  '',
  'A spike at the centre frequency.',
  '',
  'Unplug the board first',
  '',
  '',
  'The end.',
];

describe('reStructuredText read as rendered', () => {
  it('drops targets, directives, their options and comments, keeping content and inline text', () => {
    expect(restructuredText(MANUAL).split('\n')).toEqual(SHOWN);
  });

  it('reads a .rst file so for classification and for parse', async () => {
    const text = (await loadDocument(Buffer.from(MANUAL), 'troubleshooting.rst')).pages[0].text;
    expect(text).toBe(SHOWN.join('\n').trim());
    const layout = await loadLayoutDocument(Buffer.from(MANUAL), 'troubleshooting.rst');
    const lines = layout.pages[0].lines.map((line) => line.text);
    expect(lines).toContain('See the install guide and the wiki.');
    expect(lines.join('\n')).not.toMatch(/figure|:align:|_troubleshooting|editors/);
  });

  it('leaves plain text without such markup as written', () => {
    const plain = 'Wait.. then go.\n.. and more\nUse `code`_ here: not a link.';
    expect(restructuredText(plain)).toBe(plain);
  });
});
