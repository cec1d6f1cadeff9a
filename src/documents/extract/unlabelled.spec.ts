import { describe, expect, it } from '@jest/globals';
import type { LayoutLine } from '../parse/layout.types.js';
import { unlabelledOrganization } from './unlabelled.js';

function head(texts: readonly string[]): LayoutLine[] {
  return texts.map((text, i) => ({
    text,
    bbox: { left: 0.2, top: 0.02 + i * 0.025, width: 0.6, height: 0.02, page: 1 },
    size: 0.02,
    segments: [],
    words: [],
  }));
}

describe("a letterhead's organization", () => {
  it('is the line with a registration number, not a brand or branch line nearer the address', () => {
    const lines = head([
      'NORTHWIND TRADING SDN BHD',
      '(123456-X)',
      'NORTHWIND CITY MALL',
      'NO 12, JALAN MAWAR',
      '50450 KUALA LUMPUR',
    ]);
    expect(unlabelledOrganization(lines)?.text).toBe('NORTHWIND TRADING SDN BHD');
  });

  it('takes a registration number on the name line itself', () => {
    const lines = head([
      'LAKESIDE RETAIL BHD (778899-K)',
      'LAKESIDE MART EAST',
      'LOT 5, JALAN BAYU',
    ]);
    expect(unlabelledOrganization(lines)?.text).toBe('LAKESIDE RETAIL BHD');
  });

  it('joins a name broken over lines', () => {
    const lines = head([
      'HARBOUR BOOK',
      'CO. (M) SDN BHD',
      '(COMPANY NO. 654321-W)',
      'NO 8, JALAN 7/11',
      '56000 KUALA LUMPUR',
    ]);
    expect(unlabelledOrganization(lines)?.text).toBe('HARBOUR BOOK CO. (M) SDN BHD');
  });

  it('is the name above the address when no line has a registration number', () => {
    const lines = head(['Contoso Bakery', 'NO 3, JALAN API', '47100 PUCHONG']);
    expect(unlabelledOrganization(lines)?.text).toBe('Contoso Bakery');
  });
});
