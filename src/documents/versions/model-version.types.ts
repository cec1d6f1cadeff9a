/**
 * Stage of a version on a given day. `scheduled` is a row whose rollout has not started
 * (week 0): it exists in the registry but is not available to anyone yet.
 */
export type VersionStage = 'scheduled' | 'alpha' | 'default' | 'deprecated' | 'removed';

/** One row of `model_versions`. `rolloutStart` is a `yyyy-mm-dd` UTC date. */
export interface ModelVersion {
  family: string;
  version: string;
  rolloutStart: string;
  engine: string;
  notes: string;
}

export interface ModelFamilyInfo {
  family: string;
  pinField: string | null;
  description: string;
}

/** The version an operation runs with, as reported in its response. */
export interface ResolvedVersion {
  family: string;
  version: string;
  engine: string;
  stage: VersionStage;
  /** True when the request chose it through an `alpha` pin. */
  pinned: boolean;
  /** True when it is a removed version served from a frozen snapshot. */
  frozenSnapshot: boolean;
}
