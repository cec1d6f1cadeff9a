import { RequestValidationError, type ValidationErrorItem } from '../../common/validation-error.js';
import type { ResolvedVersion } from './model-version.types.js';

/** What pin resolution needs from the registry (VersionRegistry, or a VersionCatalog in tests). */
export interface VersionResolver {
  resolve(family: string, requested: string | undefined, loc: (string | number)[]): ResolvedVersion;
}

type Body = Record<string, unknown>;

function objectAt(body: Body, key: string): Body | undefined {
  const value = body[key];
  return typeof value === 'object' && value !== null && !Array.isArray(value)
    ? (value as Body)
    : undefined;
}

/** A pin field's value, or a 422 when it is present but not a string. */
function pinAt(
  container: Body | undefined,
  field: string,
  loc: (string | number)[],
): string | undefined {
  const value = container?.[field];
  if (value === undefined || value === null) return undefined;
  if (typeof value !== 'string' || value.trim() === '') {
    throw new RequestValidationError([
      { loc, msg: 'Input should be a valid version string', type: 'string_type', input: value },
    ]);
  }
  return value;
}

function preconditionError(
  loc: (string | number)[],
  pinField: string,
  precondition: string,
  input: unknown,
): ValidationErrorItem {
  return {
    loc,
    msg: `${pinField} can only be used when ${precondition}`,
    type: 'pin_precondition_missing',
    input,
    ctx: { pin: pinField, precondition },
  };
}

/** Versions an operation ran with, keyed by family, as reported in its response. */
export type ModelVersionsReport = Record<
  string,
  { version: string; stage: string; pinned: boolean; frozen_snapshot?: true }
>;

export function reportVersions(
  versions: readonly (ResolvedVersion | undefined)[],
): ModelVersionsReport {
  const report: ModelVersionsReport = {};
  for (const v of versions) {
    if (!v) continue;
    report[v.family] = {
      version: v.version,
      stage: v.stage,
      pinned: v.pinned,
      ...(v.frozenSnapshot ? { frozen_snapshot: true as const } : {}),
    };
  }
  return report;
}

/** parse: `settings.alpha.layout_model`, no precondition. */
export function resolveParseVersions(
  body: Body,
  resolver: VersionResolver,
): { layout: ResolvedVersion } {
  const loc = ['body', 'settings', 'alpha', 'layout_model'];
  const alpha = objectAt(objectAt(body, 'settings') ?? {}, 'alpha');
  return { layout: resolver.resolve('layout_model', pinAt(alpha, 'layout_model', loc), loc) };
}

/**
 * extract: `settings.alpha.extract_model` (needs `settings.citations.enabled` true) and
 * `settings.alpha.deep_extract_model` (needs `settings.deep_extract` true). The deep model
 * is resolved only for deep extracts.
 */
export function resolveExtractVersions(
  body: Body,
  resolver: VersionResolver,
): { extract: ResolvedVersion; deepExtract?: ResolvedVersion } {
  const settings = objectAt(body, 'settings') ?? {};
  const alpha = objectAt(settings, 'alpha');
  const extractLoc = ['body', 'settings', 'alpha', 'extract_model'];
  const deepLoc = ['body', 'settings', 'alpha', 'deep_extract_model'];
  const extractPin = pinAt(alpha, 'extract_model', extractLoc);
  const deepPin = pinAt(alpha, 'deep_extract_model', deepLoc);
  const citations = objectAt(settings, 'citations')?.enabled === true;
  const deep = settings.deep_extract === true;
  const errors: ValidationErrorItem[] = [];
  if (extractPin !== undefined && !citations) {
    errors.push(
      preconditionError(
        extractLoc,
        'settings.alpha.extract_model',
        'settings.citations.enabled is true',
        extractPin,
      ),
    );
  }
  if (deepPin !== undefined && !deep) {
    errors.push(
      preconditionError(
        deepLoc,
        'settings.alpha.deep_extract_model',
        'settings.deep_extract is true',
        deepPin,
      ),
    );
  }
  if (errors.length > 0) throw new RequestValidationError(errors);
  return {
    extract: resolver.resolve('extract_model', extractPin, extractLoc),
    deepExtract: deep ? resolver.resolve('deep_extract_model', deepPin, deepLoc) : undefined,
  };
}

/**
 * split: top-level `alpha.deep_split_model` (not under `settings`), which needs
 * `settings.deep_split` true and a request with `input` and a `split_description` array.
 */
export function resolveSplitVersions(
  body: Body,
  resolver: VersionResolver,
): { deepSplit?: ResolvedVersion } {
  const settings = objectAt(body, 'settings') ?? {};
  const misplaced = objectAt(settings, 'alpha');
  if (misplaced && 'deep_split_model' in misplaced) {
    throw new RequestValidationError([
      {
        loc: ['body', 'settings', 'alpha'],
        msg: 'deep_split_model is pinned with the top-level alpha.deep_split_model, not under settings',
        type: 'extra_forbidden',
        input: misplaced,
        ctx: { expected_location: 'alpha.deep_split_model' },
      },
    ]);
  }
  const loc = ['body', 'alpha', 'deep_split_model'];
  const pin = pinAt(objectAt(body, 'alpha'), 'deep_split_model', loc);
  const deep = settings.deep_split === true;
  if (pin !== undefined) {
    const missing: string[] = [];
    if (!deep) missing.push('settings.deep_split is true');
    if (body.input === undefined || body.input === null) missing.push('the request has input');
    if (!Array.isArray(body.split_description))
      missing.push('the request has a split_description array');
    if (missing.length > 0) {
      throw new RequestValidationError([
        preconditionError(loc, 'alpha.deep_split_model', missing.join(' and '), pin),
      ]);
    }
  }
  return { deepSplit: deep ? resolver.resolve('deep_split_model', pin, loc) : undefined };
}

/** edit: top-level `alpha.edit_model` (the SDK's edit request has no settings), no precondition. */
export function resolveEditVersions(
  body: Body,
  resolver: VersionResolver,
): { edit: ResolvedVersion } {
  const loc = ['body', 'alpha', 'edit_model'];
  return {
    edit: resolver.resolve('edit_model', pinAt(objectAt(body, 'alpha'), 'edit_model', loc), loc),
  };
}
