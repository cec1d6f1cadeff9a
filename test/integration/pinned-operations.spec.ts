import { beforeAll, describe, expect, it } from '@jest/globals';
import { RequestValidationError } from '../../src/common/validation-error.js';
import { runExtract } from '../../src/documents/extract/extract.runner.js';
import { runParse } from '../../src/documents/parse/parse.runner.js';
import { runSplit } from '../../src/documents/split/split.runner.js';
import {
  resolveExtractVersions,
  resolveParseVersions,
  resolveSplitVersions,
  type VersionResolver,
} from '../../src/documents/versions/model-pins.js';
import type {
  ModelFamilyInfo,
  ModelVersion,
} from '../../src/documents/versions/model-version.types.js';
import {
  VersionCatalog,
  type FrozenSnapshot,
} from '../../src/processing/versions/version-catalog.js';
import { invoiceThenAgreement, makeLayoutPdf } from '../support/layout-documents.js';

// Registry rows of the test's own (the same shape as sql/060), on a fixed day.
const families: ModelFamilyInfo[] = [
  { family: 'layout_model', pinField: 'settings.alpha.layout_model', description: '' },
  { family: 'extract_model', pinField: 'settings.alpha.extract_model', description: '' },
  { family: 'deep_extract_model', pinField: 'settings.alpha.deep_extract_model', description: '' },
  { family: 'deep_split_model', pinField: 'alpha.deep_split_model', description: '' },
];
const v = (
  family: string,
  version: string,
  rolloutStart: string,
  engine: string,
): ModelVersion => ({
  family,
  version,
  rolloutStart,
  engine,
  notes: '',
});
const rows = [
  v('layout_model', 'layout-v2', '2026-09-01', 'line-blocks-basic'),
  v('layout_model', 'layout-v3', '2026-10-20', 'line-blocks'),
  v('layout_model', 'layout-v4', '2026-11-16', 'paragraph-blocks'),
  v('extract_model', 'extract-v2', '2026-10-05', 'label-normalized'),
  v('extract_model', 'extract-v3', '2026-11-02', 'label-typed'),
  v('deep_extract_model', 'deep-extract-v2', '2026-09-14', 'fuzzy-synonyms'),
  v('deep_extract_model', 'deep-extract-v3', '2026-11-09', 'fuzzy-synonyms-described'),
  v('deep_split_model', 'deep-split-v1', '2026-08-17', 'page-evidence'),
  v('deep_split_model', 'deep-split-v2', '2026-11-04', 'page-evidence-continuity'),
];
const now = new Date('2026-11-21T12:00:00Z');

function resolverFor(frozen: FrozenSnapshot[] = []): VersionResolver {
  const catalog = new VersionCatalog(families, rows, frozen);
  return { resolve: (family, requested, loc) => catalog.resolve(family, requested, now, loc) };
}
const resolver = resolverFor();

let pdf: Buffer;

beforeAll(async () => {
  pdf = (
    await makeLayoutPdf(
      invoiceThenAgreement([
        ['Invoice Number', 'INV-77'],
        ['Invoice Date', 'March 5, 2026'],
        ['Carrier', 'DHL Express'],
      ]),
    )
  ).bytes;
});

const docs = () => [{ bytes: pdf, name: 'doc.pdf' }];

describe('parse: settings.alpha.layout_model', () => {
  it('runs the default (layout-v3) without a pin and reports it', async () => {
    const body = { input: 'x' };
    const out = await runParse(docs(), body, resolveParseVersions(body, resolver));
    expect(out.model_versions).toEqual({
      layout_model: { version: 'layout-v3', stage: 'default', pinned: false },
    });
    const types = out.result.chunks.flatMap((c) => c.blocks.map((b) => b.type));
    expect(types).not.toContain('Table');
  });

  it('an accepted alpha pin (layout-v4) changes the blocks and is reported', async () => {
    const body = { input: 'x', settings: { alpha: { layout_model: 'layout-v4' } } };
    const out = await runParse(docs(), body, resolveParseVersions(body, resolver));
    expect(out.model_versions.layout_model).toEqual({
      version: 'layout-v4',
      stage: 'alpha',
      pinned: true,
    });
    const tables = out.result.chunks.flatMap((c) => c.blocks).filter((b) => b.type === 'Table');
    expect(tables.map((t) => t.content)).toEqual([
      '| Description | Qty | Amount |\n| --- | --- | --- |\n| Widget | 2 | 40.00 |',
    ]);
  });

  it('a removed version is refused with the available versions, unless frozen on-prem', async () => {
    const body = { input: 'x', settings: { alpha: { layout_model: 'layout-v2' } } };
    let detail: RequestValidationError['detail'] = [];
    try {
      resolveParseVersions(body, resolver);
    } catch (error) {
      if (error instanceof RequestValidationError) detail = error.detail;
    }
    expect(detail[0]?.msg).toBe(
      'layout_model version "layout-v2" was removed on 2026-11-17. Available versions: layout-v3 (default), layout-v4 (alpha)',
    );
    const onPrem = resolverFor([{ family: 'layout_model', version: 'layout-v2' }]);
    const out = await runParse(docs(), body, resolveParseVersions(body, onPrem));
    expect(out.model_versions.layout_model).toEqual({
      version: 'layout-v2',
      stage: 'removed',
      pinned: true,
      frozen_snapshot: true,
    });
    const types = new Set(out.result.chunks.flatMap((c) => c.blocks.map((b) => b.type)));
    expect(types).toEqual(new Set(['Title', 'Text']));
  });
});

describe('extract: settings.alpha.extract_model and deep_extract_model', () => {
  const schema = {
    type: 'object',
    properties: {
      invoice_date: { type: 'string', format: 'date' },
      shipping_carrier: { type: 'string', description: 'Carrier used for shipping' },
    },
  };

  it('a deprecated extract-v2 pin returns the date as written; the default normalizes it', async () => {
    const pinned = {
      input: 'x',
      instructions: { schema },
      settings: { citations: { enabled: true }, alpha: { extract_model: 'extract-v2' } },
    };
    const out = await runExtract(docs(), pinned, resolveExtractVersions(pinned, resolver));
    expect(out.model_versions).toEqual({
      extract_model: { version: 'extract-v2', stage: 'deprecated', pinned: true },
    });
    expect(out.result.invoice_date).toMatchObject({ value: 'March 5, 2026' });
    const plain = {
      input: 'x',
      instructions: { schema },
      settings: { citations: { enabled: true } },
    };
    const byDefault = await runExtract(docs(), plain, resolveExtractVersions(plain, resolver));
    expect(byDefault.result.invoice_date).toMatchObject({ value: '2026-03-05' });
    expect(byDefault.model_versions.extract_model.version).toBe('extract-v3');
  });

  it('the extract pin without citations is a 422 naming the precondition', () => {
    const body = {
      input: 'x',
      instructions: { schema },
      settings: { alpha: { extract_model: 'extract-v2' } },
    };
    expect(() => resolveExtractVersions(body, resolver)).toThrow(RequestValidationError);
  });

  it('a deep-extract-v3 pin is run and reported; the default deep model finds the same field by its description', async () => {
    const pinned = {
      input: 'x',
      instructions: { schema },
      settings: { deep_extract: true, alpha: { deep_extract_model: 'deep-extract-v3' } },
    };
    const out = await runExtract(docs(), pinned, resolveExtractVersions(pinned, resolver));
    expect(out.result.shipping_carrier).toBe('DHL Express');
    expect(out.model_versions.deep_extract_model).toEqual({
      version: 'deep-extract-v3',
      stage: 'alpha',
      pinned: true,
    });
    const plain = { input: 'x', instructions: { schema }, settings: { deep_extract: true } };
    const byDefault = await runExtract(docs(), plain, resolveExtractVersions(plain, resolver));
    expect(byDefault.result.shipping_carrier).toBe('DHL Express');
    expect(byDefault.model_versions.deep_extract_model.version).toBe('deep-extract-v2');
  });
});

describe('split: top-level alpha.deep_split_model', () => {
  const split_description = [
    { name: 'Invoice', description: 'Invoice with invoice number and amounts' },
    { name: 'Contract', description: 'Service agreement with terms between parties' },
  ];

  it('the default deep split continues sections; a deep-split-v1 pin judges pages alone', async () => {
    const plain = { input: 'x', split_description, settings: { deep_split: true } };
    const byDefault = await runSplit(docs(), plain, resolveSplitVersions(plain, resolver));
    const pagesOf = (out: typeof byDefault) =>
      (out.result.splits as { name: string; pages: { page_number: number }[] }[]).map((s) => [
        s.name,
        s.pages.map((p) => p.page_number),
      ]);
    expect(pagesOf(byDefault)).toEqual([
      ['Invoice', [1, 2]],
      ['Contract', [3]],
    ]);
    const pinned = { ...plain, alpha: { deep_split_model: 'deep-split-v1' } };
    const out = await runSplit(docs(), pinned, resolveSplitVersions(pinned, resolver));
    expect(out.model_versions).toEqual({
      deep_split_model: { version: 'deep-split-v1', stage: 'deprecated', pinned: true },
    });
    expect(pagesOf(out)).toEqual([
      ['Invoice', [1]],
      ['Contract', [3]],
    ]);
  });

  it('plain split returns page ranges without a deep model', async () => {
    const body = { input: 'x', split_description };
    const out = await runSplit(docs(), body, resolveSplitVersions(body, resolver));
    expect(out.model_versions).toEqual({});
    expect((out.result as { section_mapping: unknown }).section_mapping).toEqual({
      Invoice: [1, 2],
      Contract: [3],
    });
  });
});
