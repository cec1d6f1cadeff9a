import { describe, expect, it } from '@jest/globals';
import fc from 'fast-check';
import { analyzeText, documentLanguage } from './analysis.js';
import { classify } from './classify.js';
import type { ClassificationCategory } from './classify.types.js';
import { detectLanguage } from './language.js';
import { signalTerms } from './signals.js';

const lemmas = (page: string) => signalTerms(page, 0).map((term) => term.lemma);

describe('document language', () => {
  const english =
    'The aim of this study was to evaluate the ability of diversity measures to differentiate land cover types in the region.';
  const portuguese =
    'O objetivo deste estudo foi avaliar a capacidade de medidas de diversidade para diferenciar os tipos de cobertura do solo na região.';

  it('is what most sentences are written in, not the language of the header and abstract', () => {
    const header = [
      'Instituto Nacional de Pesquisas da Amazônia',
      'RESUMO',
      portuguese,
      portuguese,
    ];
    const body = Array.from({ length: 12 }, () => english);
    expect(documentLanguage([[...header, ...body].join('\n')])).toBe('en');
    expect(documentLanguage([[...header, portuguese, ...body.slice(0, 2)].join('\n')])).toBe('pt');
  });

  it('reads an OCR-ed till receipt without umlauts and with English card lines as German', () => {
    // A supermarket till receipt as OCR reads it: the n-gram model calls it English.
    const receipt = [
      'LDL |',
      'Warburger StraBe 130',
      '33100 Paderborn',
      'EUR',
      'Hahnchen sUR-sauer 1,79 A',
      'Bulgur-Krauter 0,89 A',
      'Jacobs Krtinung Aroma 3,29 x 2 6,58 A',
      'Premium Vodka 4,99 B',
      'Apfelsaft 1,51 1,19 B',
      'Doppelbrotchen 0,25 A',
      'zu zahlen 15,69',
      'Kreditkarte 15,69',
      'MWS TH% MUST + Netto 5 Brutto',
      'io1% 0,62 8,89 9,51',
      'B19 % 0,99 aie 6,18',
      'Summe : 1,61 14,08 15,69',
      'UST-ID-NR: DEB14689550',
      '-K-~U-N-D-E-N-B-E-L-E~G-',
      'Terminal-ID 60122458',
      'TA-Nr 481044 BNr 4055',
      'Kartenzahlung',
      'contact less',
      'Debit MasterCard',
      'EUR 15.69',
      'PAN HHH RRS 165',
      'Karte 0',
      'EMV-ALD A0000000041010',
      'YU-Nr 4556221667',
      'Genehmigungs-Nr 5U3D50',
      'Datum 07.04.20 14:37 Uhr',
      'wk Zahlung erfolgt #4%',
      'autor isierung arfolgt js',
      'BITTE BELEG AUFBEWAHREN',
    ].join('\n');
    expect(detectLanguage(receipt)).toBe('de');
  });
});

describe('layout signals', () => {
  it('reads a short page of short priced rows with a clock time as a purchase', () => {
    const slip = [
      'CityCare Pharmacy',
      'Date: 11/02/2024 14:05    Register 2',
      'RX 7723301 AMOXICILLIN 500MG CAP #30      12.40',
      'VITAMIN D3 1000IU 100CT                    8.99',
      'Subtotal                                  21.39',
      'Total                                     22.11',
    ].join('\n');
    expect(lemmas(slip)).toContain('purchase');
    // An invoice's long description lines are no till slip, even with a time on it.
    const invoice = [
      'Invoice 2024-118, issued 12:00',
      ...Array.from(
        { length: 4 },
        (_, i) =>
          `Consulting services for the migration of the billing platform, phase ${i} 1.200,00`,
      ),
    ].join('\n');
    expect(lemmas(invoice)).not.toContain('purchase');
  });

  it("reads a one-item slip whose prices carry the till's tax class as a purchase, in Deep Classify", () => {
    const slip = [
      'toom Baumarkt GmbH',
      'Gruner Weg 41',
      '4006825607727 Spindelmaher',
      '1.000 STK 49.99 19',
      'SUMME EUR 49.99 x',
      'GEGEBEN BAR 50.00',
      'RUCKGELD EUR 0.01',
      '06.04.2020 14:43 2875',
    ].join('\n');
    const deep = signalTerms(slip, 0, true).map((term) => term.lemma);
    expect(deep).toEqual(expect.arrayContaining(['purchase', 'item', 'price']));
    // The plain reading sees two priced rows only: no slip for the default model.
    expect(lemmas(slip)).not.toContain('purchase');
  });

  it('names a till slip a receipt paid in a shop for Deep Classify only', () => {
    // A Lidl slip read with its German words whole: items, VAT table, cash and change.
    const slip = [
      'Warburger Straße 130',
      '33100 Paderborn',
      'Bananen 0,19 A',
      'Emmentaler Stück 2,69 A',
      'Übersee Rum 40% 5,69 B',
      'zu zahlen 19,58',
      'Bar 20,00',
      'Rückgeld -0,42',
      'MWST. + Netto = Brutto',
      'Summe 1,91 17,67 19,58',
      '3182 09:58',
    ].join('\n');
    const deep = signalTerms(slip, 0, true).map((term) => term.lemma);
    expect(deep).toEqual(expect.arrayContaining(['receipt', 'shop', 'cash', 'card']));
    expect(lemmas(slip)).not.toContain('receipt');
    // A page of long invoice lines is no slip, for either model.
    const invoice = Array.from(
      { length: 4 },
      (_, i) => `Consulting services for the migration of the billing platform ${i} 1.200,00`,
    ).join('\n');
    expect(signalTerms(`${invoice}\n12:00`, 0, true).map((term) => term.lemma)).not.toContain(
      'receipt',
    );
  });

  it('reads spans of months and years at either end of a line as jobs held', () => {
    const cv = [
      'PhD Princeton University, Computer Science',
      'Sept 2018 – May 2023',
      'Nexus AI, Co-Founder & CTO',
      'June 2023 – present',
    ].join('\n');
    expect(lemmas(cv)).toEqual(expect.arrayContaining(['experience', 'date', 'job']));
    expect(lemmas('Revenue grew in 2023, see table 4.')).not.toContain('job');
  });

  it('reads an e-mail address as contact details', () => {
    expect(lemmas('Jane Roe, jane.roe@example.org')).toEqual(
      expect.arrayContaining(['email', 'contact']),
    );
  });
});

describe('Deep Classify keeps the default model evidence', () => {
  const schema: ClassificationCategory[] = [
    { category: 'invoice', criteria: ['invoice number', 'total amount due', 'due date'] },
    { category: 'receipt', criteria: ['items purchased', 'paid by card', 'thank you'] },
    { category: 'resume', criteria: ['work experience', 'education', 'skills'] },
  ];
  const words = fc.constantFrom(
    'invoice',
    'number',
    'total',
    'amount',
    'due',
    'date',
    'items',
    'purchased',
    'paid',
    'card',
    'thank',
    'you',
    'not',
    'work',
    'experience',
    'education',
    'skills',
    '12.40',
    '\n',
  );
  const page = fc.array(words, { maxLength: 60 }).map((tokens) => tokens.join(' '));

  it('rates no criterion lower than the default model does', () => {
    fc.assert(
      fc.property(fc.array(page, { minLength: 1, maxLength: 3 }), (pages) => {
        const rating = (model: 'default' | 'accurate') =>
          classify({ pages, classificationSchema: schema, model })
            .response_confidence.categories.flatMap((category) => category.criteria_confidence)
            .map((criterion) => criterion.confidence);
        const fast = rating('default');
        const deep = rating('accurate');
        fast.forEach((value, i) => {
          if (value === 'high') expect(deep[i]).toBe('high');
        });
      }),
      { numRuns: 60 },
    );
  });

  it("keeps the default model's clear choice on a page with almost no text", () => {
    // A form photographed badly: "checked" is WordNet's synonym of invoice ("check", a
    // restaurant's bill); the default model's clear reading of the form wins.
    const schemaWithForm: ClassificationCategory[] = [
      ...schema,
      { category: 'tax_form', criteria: ['an official form of a tax authority', 'tax year'] },
    ];
    const pages = ['[1] CORRECTED (if checked)\nFor Recipient\nForm 1099-G  tax year 2022'];
    for (const model of ['default', 'accurate'] as const) {
      expect(classify({ pages, classificationSchema: schemaWithForm, model }).result.category).toBe(
        'tax_form',
      );
    }
  });
});

describe('Portuguese and Spanish lexicons', () => {
  // "taxa" (a rate) is not in the lexicon; its stem "tax" is marked as Portuguese.
  it("read a paper's everyday words as themselves, not as a tax form's", () => {
    const portuguese = analyzeText(
      'O modelo proposto foi testado no campo experimental; a taxa de crescimento e a parte do exercício.',
      true,
      'pt',
    ).map((term) => term.lemma);
    for (const word of ['form', 'box', 'fee', 'party', 'tax'])
      expect(portuguese).not.toContain(word);
    const spanish = analyzeText(
      'El modelo del ejercicio de la parte experimental.',
      true,
      'es',
    ).map((term) => term.lemma);
    for (const word of ['form', 'tax', 'party']) expect(spanish).not.toContain(word);
    // The words of a real form still are.
    expect(
      analyzeText('formulário da declaração de imposto', true, 'pt').map((t) => t.lemma),
    ).toEqual(expect.arrayContaining(['form', 'tax']));
  });
});
