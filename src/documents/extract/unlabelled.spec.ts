import { describe, expect, it } from '@jest/globals';
import type { LayoutLine } from '../parse/layout.types.js';
import { unlabelledOrganization } from './unlabelled.js';

function head(texts: readonly string[], left = (_: number) => 0.2): LayoutLine[] {
  return texts.map((text, i) => ({
    text,
    bbox: { left: left(i), top: 0.02 + i * 0.025, width: 0.3, height: 0.02, page: 1 },
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

  it('does not join a line printed beside the name, in another column', () => {
    const lines = head(
      ['Global Wholesaler', 'Azure Interior', '4557 De Silva St', 'Fremont CA 94538'],
      (i) => (i === 0 ? 0.65 : 0.05),
    );
    expect(unlabelledOrganization(lines)?.text).toBe('Azure Interior');
  });

  it('is the name above the address the document gives again below its head', () => {
    // A window envelope's return line names the sender; the address block is the recipient's,
    // named once. The sender's name comes back in the footer.
    const lines = head([
      'Fabrikam Hosting AG - Uferweg 40 - D-63571 Gelnhausen',
      'Tailspin Toys Ltd.',
      '93B Harbour Road',
      'Yuen Long, Hong Kong',
      ...Array.from(
        { length: 12 },
        (_, i) => `Position ${i + 1} of the invoice with a long description line`,
      ),
      'Fabrikam Hosting AG, Vorstand: A. Example, Registergericht Hanau',
    ]);
    expect(unlabelledOrganization(lines)?.text).toBe('Fabrikam Hosting AG');
  });

  it("reads the issuer's name from a title line that names the document after it", () => {
    const lines = head([
      'Contoso Web Services Invoice',
      ...Array.from({ length: 14 }, (_, i) => `Charge ${i + 1} for the services of the month`),
      'All services are sold by Contoso Web Services, Inc.',
    ]);
    expect(unlabelledOrganization(lines)?.text).toBe('Contoso Web Services');
  });

  it("is the sender of a legal footer, not the recipient's block at the head", () => {
    // The recipient's name is printed at the head and again in a reference line; the
    // sender's only in small print at the foot, over its office's contacts, and as the
    // holder of the account to pay into.
    const lines = head([
      'Woodgrove Studio',
      'Jane Example',
      '27 Example Street',
      '69100 Villeurbanne',
      'Invoice 2022089083',
      'File reference: 365146 - Woodgrove Studio',
      ...Array.from({ length: 10 }, (_, i) => `Item ${i + 1} of the invoice, one unit at 4.50`),
      'Bank transfer - account holder: LITWARE PRESS',
    ]);
    const small = (text: string, i: number): LayoutLine => ({
      text,
      bbox: { left: 0.3, top: 0.9 + i * 0.02, width: 0.4, height: 0.012, page: 1 },
      size: 0.012,
      segments: [{ text, left: 0.3, right: 0.7 }],
      words: [],
    });
    const footer = [
      'LITWARE PRESS',
      'Registered office: 16 Example Road - 92100 Boulogne - Tel: 01 71 17 61 67',
    ].map(small);
    expect(unlabelledOrganization([...lines, ...footer])?.text).toBe('LITWARE PRESS');
    // Without the footer the head's name, given again in the reference line, is taken.
    expect(unlabelledOrganization(lines)?.text).toMatch(/^Woodgrove Studio/);
  });
});
