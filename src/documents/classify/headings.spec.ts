import { describe, expect, it } from '@jest/globals';
import { headingLines } from './headings.js';

describe('headingLines', () => {
  it('keeps short lines, capitalised titles and field names, not running text', () => {
    const page = [
      'MASTER SERVICES AGREEMENT BETWEEN THE PARTIES BELOW',
      'Invoice No: BC-2024-0117 issued to Harbor Logistics Inc. on March 4',
      '2. Education',
      '## Work experience',
      'This Agreement is entered into as of January 15, 2024 by and between the parties.',
      'The total amount due is payable within thirty days of the date of this invoice.',
      '12,540.18',
      '',
    ].join('\n');
    expect(headingLines(page)).toEqual([
      'MASTER SERVICES AGREEMENT BETWEEN THE PARTIES BELOW',
      'Invoice No',
      'Education',
      'Work experience',
    ]);
  });

  it('does not take a long sentence with a late colon as a field name', () => {
    expect(headingLines('We report the following results from the trial: all good')).toEqual([]);
  });
});
