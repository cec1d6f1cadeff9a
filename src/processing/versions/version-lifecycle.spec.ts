import { describe, expect, it } from '@jest/globals';
import { RequestValidationError } from '../../common/validation-error.js';
import type {
  ModelFamilyInfo,
  ModelVersion,
} from '../../documents/versions/model-version.types.js';
import { VersionCatalog } from './version-catalog.js';
import { stageOf } from './version-lifecycle.js';

const families: ModelFamilyInfo[] = [
  { family: 'layout_model', pinField: 'settings.alpha.layout_model', description: 'test' },
  { family: 'classifier', pinField: null, description: 'test' },
];

function version(name: string, rolloutStart: string, family = 'layout_model'): ModelVersion {
  return { family, version: name, rolloutStart, engine: 'line-blocks', notes: '' };
}

// The previous default was released long before; the new version's week 1 starts 2027-03-01.
const previous = version('layout-p', '2027-01-04');
const next = version('layout-n', '2027-03-01');
const rows = [previous, next];

function day(offset: number, time = '12:00:00'): Date {
  const base = Date.parse(`2027-03-01T${time}Z`);
  return new Date(base + offset * 86_400_000);
}

/** Expected stages by rollout week of the new version (week 0 = the week before). */
const table = [
  { week: 0, next: 'scheduled', previous: 'default', defaultIs: 'layout-p' },
  { week: 1, next: 'alpha', previous: 'default', defaultIs: 'layout-p' },
  { week: 2, next: 'alpha', previous: 'default', defaultIs: 'layout-p' },
  { week: 3, next: 'default', previous: 'deprecated', defaultIs: 'layout-n' },
  { week: 4, next: 'default', previous: 'deprecated', defaultIs: 'layout-n' },
  { week: 5, next: 'default', previous: 'removed', defaultIs: 'layout-n' },
] as const;

const days = table.flatMap((row) =>
  Array.from({ length: 7 }, (_, i) => ({ ...row, offset: (row.week - 1) * 7 + i })),
);

describe('stageOf', () => {
  it.each(days)('week $week day offset $offset: new $next, previous $previous', (row) => {
    const now = day(row.offset);
    expect(stageOf(next, rows, now)).toBe(row.next);
    expect(stageOf(previous, rows, now)).toBe(row.previous);
  });

  it('switches at UTC midnight, not at the time of day the version was added', () => {
    expect(stageOf(next, rows, day(13, '23:59:59'))).toBe('alpha');
    expect(stageOf(next, rows, day(14, '00:00:00'))).toBe('default');
    expect(stageOf(previous, rows, day(27, '23:59:59'))).toBe('deprecated');
    expect(stageOf(previous, rows, day(28, '00:00:00'))).toBe('removed');
  });

  it('keeps the newest released version default when no successor exists', () => {
    expect(stageOf(next, rows, day(400))).toBe('default');
  });

  it('deprecates an older version at the promotion of its immediate successor only', () => {
    const third = version('layout-t', '2027-05-03');
    const all = [...rows, third];
    // Week 3 of the third version: layout-n deprecated, layout-p long removed.
    const now = new Date('2027-05-17T08:00:00Z');
    expect(stageOf(third, all, now)).toBe('default');
    expect(stageOf(next, all, now)).toBe('deprecated');
    expect(stageOf(previous, all, now)).toBe('removed');
  });
});

describe(VersionCatalog.name, () => {
  const sut = new VersionCatalog(families, rows);
  const loc = ['body', 'settings', 'alpha', 'layout_model'];

  it.each(days)('week $week (offset $offset): default and pinnability', (row) => {
    const now = day(row.offset);
    expect(sut.defaultVersion('layout_model', now).version).toBe(row.defaultIs);
    const pinPrevious = () => sut.resolve('layout_model', 'layout-p', now, loc);
    const pinNext = () => sut.resolve('layout_model', 'layout-n', now, loc);
    if (row.previous === 'removed') expect(pinPrevious).toThrow(RequestValidationError);
    else expect(pinPrevious()).toMatchObject({ version: 'layout-p', pinned: true });
    if (row.next === 'scheduled') expect(pinNext).toThrow(RequestValidationError);
    else expect(pinNext()).toMatchObject({ version: 'layout-n', stage: row.next, pinned: true });
  });

  function detailOf(fn: () => unknown) {
    try {
      fn();
    } catch (error) {
      if (error instanceof RequestValidationError) return error.detail[0];
      throw error;
    }
    throw new Error('expected a RequestValidationError');
  }

  it('lists the available versions with their stages for an unknown version', () => {
    const detail = detailOf(() => sut.resolve('layout_model', 'layout-x', day(20), loc));
    expect(detail.loc).toEqual(loc);
    expect(detail.type).toBe('model_version_unknown');
    expect(detail.msg).toBe(
      'Unknown layout_model version "layout-x". Available versions: layout-p (deprecated), layout-n (default)',
    );
    expect(detail.ctx).toEqual({
      family: 'layout_model',
      available: [
        { version: 'layout-p', stage: 'deprecated' },
        { version: 'layout-n', stage: 'default' },
      ],
    });
  });

  it('says when a removed version was removed and lists what is left', () => {
    const detail = detailOf(() => sut.resolve('layout_model', 'layout-p', day(30), loc));
    expect(detail.type).toBe('model_version_removed');
    expect(detail.msg).toBe(
      'layout_model version "layout-p" was removed on 2027-03-29. Available versions: layout-n (default)',
    );
  });

  it('keeps a removed version pinnable from a frozen snapshot', () => {
    const onPrem = new VersionCatalog(families, rows, [
      { family: 'layout_model', version: 'layout-p' },
    ]);
    expect(onPrem.resolve('layout_model', 'layout-p', day(60), loc)).toMatchObject({
      version: 'layout-p',
      stage: 'removed',
      pinned: true,
      frozenSnapshot: true,
    });
    expect(onPrem.available('layout_model', day(60))).toEqual([
      { version: 'layout-p', stage: 'removed' },
      { version: 'layout-n', stage: 'default' },
    ]);
  });

  it('refuses frozen snapshots of unknown versions and of non-pinnable families', () => {
    expect(
      () => new VersionCatalog(families, rows, [{ family: 'layout_model', version: 'nope' }]),
    ).toThrow(/not in the registry/);
    expect(
      () =>
        new VersionCatalog(
          families,
          [...rows, version('classify-v1', '2027-01-01', 'classifier')].map((v) =>
            v.family === 'classifier' ? { ...v, engine: 'lexical' } : v,
          ),
          [{ family: 'classifier', version: 'classify-v1' }],
        ),
    ).toThrow(/not a pinnable model family/);
  });

  it('refuses rows naming an engine the build does not have', () => {
    expect(() => new VersionCatalog(families, [{ ...next, engine: 'quantum-layout' }])).toThrow(
      /engine "quantum-layout"/,
    );
  });

  it('lists dates of each stage change', () => {
    const [layout] = sut.listing(day(3));
    expect(layout.default).toBe('layout-p');
    expect(layout.versions).toEqual([
      expect.objectContaining({
        version: 'layout-p',
        stage: 'default',
        pinnable: true,
        deprecated_from: '2027-03-15',
        removed_from: '2027-03-29',
      }),
      expect.objectContaining({
        version: 'layout-n',
        stage: 'alpha',
        pinnable: true,
        alpha_from: '2027-03-01',
        default_from: '2027-03-15',
        deprecated_from: null,
      }),
    ]);
  });
});
