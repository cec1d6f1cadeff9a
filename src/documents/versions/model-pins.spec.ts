import { describe, expect, it } from '@jest/globals';
import { RequestValidationError } from '../../common/validation-error.js';
import type { ModelFamilyInfo, ModelVersion } from './model-version.types.js';
import {
  reportVersions,
  resolveExtractVersions,
  resolveParseVersions,
  resolveSplitVersions,
  type VersionResolver,
} from './model-pins.js';
import { VersionCatalog } from '../../processing/versions/version-catalog.js';

const families: ModelFamilyInfo[] = [
  { family: 'layout_model', pinField: 'settings.alpha.layout_model', description: '' },
  { family: 'extract_model', pinField: 'settings.alpha.extract_model', description: '' },
  { family: 'deep_extract_model', pinField: 'settings.alpha.deep_extract_model', description: '' },
  { family: 'deep_split_model', pinField: 'alpha.deep_split_model', description: '' },
];
const row = (
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
  row('layout_model', 'l-old', '2027-01-04', 'line-blocks-basic'),
  row('layout_model', 'l-cur', '2027-02-01', 'line-blocks'),
  row('layout_model', 'l-new', '2027-03-08', 'paragraph-blocks'),
  row('extract_model', 'e-cur', '2027-01-04', 'label-typed'),
  row('extract_model', 'e-new', '2027-03-08', 'label-normalized'),
  row('deep_extract_model', 'd-cur', '2027-01-04', 'fuzzy-synonyms'),
  row('deep_split_model', 's-old', '2027-01-04', 'page-evidence'),
  row('deep_split_model', 's-cur', '2027-02-22', 'page-evidence-continuity'),
];
// 2027-03-10: l-new and e-new in alpha, l-old removed, s-old deprecated (week 3 of s-cur).
const catalog = new VersionCatalog(families, rows);
const now = new Date('2027-03-10T09:00:00Z');
const resolver: VersionResolver = {
  resolve: (family, requested, loc) => catalog.resolve(family, requested, now, loc),
};

function detail(fn: () => unknown) {
  try {
    fn();
  } catch (error) {
    if (error instanceof RequestValidationError) return error.detail;
    throw error;
  }
  throw new Error('expected a 422');
}

describe('parse pin (settings.alpha.layout_model)', () => {
  it('uses the default when nothing is pinned and reports it', () => {
    const { layout } = resolveParseVersions({ input: 'x' }, resolver);
    expect(reportVersions([layout])).toEqual({
      layout_model: { version: 'l-cur', stage: 'default', pinned: false },
    });
  });

  it('accepts an alpha version and reports the pin', () => {
    const { layout } = resolveParseVersions(
      { settings: { alpha: { layout_model: 'l-new' } } },
      resolver,
    );
    expect(layout).toMatchObject({
      version: 'l-new',
      engine: 'paragraph-blocks',
      stage: 'alpha',
      pinned: true,
    });
  });

  it('refuses a removed version, listing the available ones', () => {
    const [d] = detail(() =>
      resolveParseVersions({ settings: { alpha: { layout_model: 'l-old' } } }, resolver),
    );
    expect(d.loc).toEqual(['body', 'settings', 'alpha', 'layout_model']);
    expect(d.msg).toContain('Available versions: l-cur (default), l-new (alpha)');
  });

  it('refuses a pin that is not a string', () => {
    const [d] = detail(() =>
      resolveParseVersions({ settings: { alpha: { layout_model: 4 } } }, resolver),
    );
    expect(d.type).toBe('string_type');
  });
});

describe('extract pins', () => {
  it('pins extract_model when citations are enabled', () => {
    const versions = resolveExtractVersions(
      { settings: { citations: { enabled: true }, alpha: { extract_model: 'e-new' } } },
      resolver,
    );
    expect(versions.extract).toMatchObject({ version: 'e-new', pinned: true });
    expect(versions.deepExtract).toBeUndefined();
  });

  it.each([
    [{ alpha: { extract_model: 'e-new' } }],
    [{ citations: { enabled: false }, alpha: { extract_model: 'e-new' } }],
    [{ citations: {}, alpha: { extract_model: 'e-new' } }],
  ])('names the citations precondition when it is missing (%j)', (settings) => {
    const [d] = detail(() => resolveExtractVersions({ settings }, resolver));
    expect(d).toMatchObject({
      loc: ['body', 'settings', 'alpha', 'extract_model'],
      type: 'pin_precondition_missing',
      msg: 'settings.alpha.extract_model can only be used when settings.citations.enabled is true',
    });
  });

  it('pins deep_extract_model only with deep_extract', () => {
    const ok = resolveExtractVersions(
      { settings: { deep_extract: true, alpha: { deep_extract_model: 'd-cur' } } },
      resolver,
    );
    expect(ok.deepExtract).toMatchObject({ version: 'd-cur', pinned: true });
    const [d] = detail(() =>
      resolveExtractVersions({ settings: { alpha: { deep_extract_model: 'd-cur' } } }, resolver),
    );
    expect(d.msg).toBe(
      'settings.alpha.deep_extract_model can only be used when settings.deep_extract is true',
    );
  });

  it('reports both preconditions at once', () => {
    const errors = detail(() =>
      resolveExtractVersions(
        { settings: { alpha: { extract_model: 'e-new', deep_extract_model: 'd-cur' } } },
        resolver,
      ),
    );
    expect(errors.map((e) => e.loc.at(-1))).toEqual(['extract_model', 'deep_extract_model']);
  });

  it('resolves the default deep model for deep extracts without a pin', () => {
    const versions = resolveExtractVersions({ settings: { deep_extract: true } }, resolver);
    expect(versions.deepExtract).toMatchObject({ version: 'd-cur', pinned: false });
  });
});

describe('deep split pin (top-level alpha.deep_split_model)', () => {
  const valid = { input: 'docproc://f.pdf', split_description: [{ name: 'a', description: 'b' }] };

  it('pins a deprecated version during its weeks 3-4', () => {
    const { deepSplit } = resolveSplitVersions(
      { ...valid, settings: { deep_split: true }, alpha: { deep_split_model: 's-old' } },
      resolver,
    );
    expect(deepSplit).toMatchObject({ version: 's-old', stage: 'deprecated', pinned: true });
  });

  it('refuses the pin under settings', () => {
    const [d] = detail(() =>
      resolveSplitVersions(
        { ...valid, settings: { deep_split: true, alpha: { deep_split_model: 's-old' } } },
        resolver,
      ),
    );
    expect(d.loc).toEqual(['body', 'settings', 'alpha']);
    expect(d.msg).toContain('top-level alpha.deep_split_model');
  });

  it('names each missing precondition', () => {
    const [noDeep] = detail(() =>
      resolveSplitVersions({ ...valid, alpha: { deep_split_model: 's-cur' } }, resolver),
    );
    expect(noDeep.msg).toBe(
      'alpha.deep_split_model can only be used when settings.deep_split is true',
    );
    const [noSections] = detail(() =>
      resolveSplitVersions(
        {
          input: 'x',
          split_description: 'all',
          settings: { deep_split: true },
          alpha: { deep_split_model: 's-cur' },
        },
        resolver,
      ),
    );
    expect(noSections.msg).toBe(
      'alpha.deep_split_model can only be used when the request has a split_description array',
    );
  });

  it('lists available versions for an unknown one', () => {
    const [d] = detail(() =>
      resolveSplitVersions(
        { ...valid, settings: { deep_split: true }, alpha: { deep_split_model: 's-9' } },
        resolver,
      ),
    );
    expect(d.ctx).toEqual({
      family: 'deep_split_model',
      available: [
        { version: 's-old', stage: 'deprecated' },
        { version: 's-cur', stage: 'default' },
      ],
    });
  });
});
