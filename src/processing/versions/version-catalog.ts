import { ApiError } from '../../common/api-error.js';
import { RequestValidationError } from '../../common/validation-error.js';
import { ENGINES_BY_FAMILY } from '../../documents/versions/engines.js';
import type {
  ModelFamilyInfo,
  ModelVersion,
  ResolvedVersion,
  VersionStage,
} from '../../documents/versions/model-version.types.js';
import { scheduleOf, stageOf, type VersionSchedule } from './version-lifecycle.js';

/** A removed version an on-prem operator keeps pinnable (`FROZEN_MODEL_SNAPSHOTS`). */
export interface FrozenSnapshot {
  family: string;
  version: string;
}

interface VersionListing {
  version: string;
  alpha_from: string;
  default_from: string;
  deprecated_from: string | null;
  removed_from: string | null;
  stage: VersionStage;
  /** Whether a request may pin it now (alpha, deprecated, or a frozen removed version). */
  pinnable: boolean;
  frozen_snapshot: boolean;
  notes: string;
}

export interface FamilyListing {
  family: string;
  pin_field: string | null;
  description: string;
  /** The version requests get when they pin nothing. */
  default: string | null;
  versions: VersionListing[];
}

interface AvailableVersion {
  version: string;
  stage: VersionStage;
}

/** Raised at start-up when registry rows or configuration cannot be served. */
export class VersionRegistryError extends Error {
  constructor(
    message: string,
    readonly variable?: string,
  ) {
    super(message);
    this.name = 'VersionRegistryError';
  }
}

function snakeSchedule(s: VersionSchedule) {
  return {
    alpha_from: s.alphaFrom,
    default_from: s.defaultFrom,
    deprecated_from: s.deprecatedFrom,
    removed_from: s.removedFrom,
  };
}

const PINNABLE_STAGES: ReadonlySet<VersionStage> = new Set(['alpha', 'default', 'deprecated']);

/** Spec "Versioning": alpha, default and deprecated versions pin; a removed one only as a frozen snapshot. */
function isPinnableStage(stage: VersionStage, frozenSnapshot: boolean): boolean {
  return PINNABLE_STAGES.has(stage) || (stage === 'removed' && frozenSnapshot);
}

/**
 * The registry's rules over a fixed set of rows: stages, defaults and pin resolution on a
 * given day. Pure, so lifecycle tests use their own rows and dates.
 */
export class VersionCatalog {
  private readonly byFamily = new Map<string, ModelVersion[]>();
  private readonly frozen: Set<string>;

  constructor(
    private readonly families: readonly ModelFamilyInfo[],
    versions: readonly ModelVersion[],
    frozenSnapshots: readonly FrozenSnapshot[] = [],
  ) {
    for (const family of families) this.byFamily.set(family.family, []);
    for (const version of versions) {
      const list = this.byFamily.get(version.family);
      if (!list) {
        throw new VersionRegistryError(
          `Version ${version.version} names unknown family ${version.family}`,
        );
      }
      const engines = ENGINES_BY_FAMILY[version.family];
      if (engines && !engines.includes(version.engine)) {
        throw new VersionRegistryError(
          `Version ${version.version} of ${version.family} names engine "${version.engine}", ` +
            `which this build does not have (known: ${engines.join(', ')})`,
        );
      }
      list.push(version);
    }
    for (const list of this.byFamily.values()) {
      list.sort(
        (a, b) =>
          a.rolloutStart.localeCompare(b.rolloutStart) || a.version.localeCompare(b.version),
      );
    }
    for (const snapshot of frozenSnapshots) {
      const family = families.find((f) => f.family === snapshot.family);
      if (!family || family.pinField === null) {
        throw new VersionRegistryError(
          `FROZEN_MODEL_SNAPSHOTS names ${snapshot.family}, which is not a pinnable model family`,
          'FROZEN_MODEL_SNAPSHOTS',
        );
      }
      if (!this.find(snapshot.family, snapshot.version)) {
        throw new VersionRegistryError(
          `FROZEN_MODEL_SNAPSHOTS names ${snapshot.family}:${snapshot.version}, which is not in the registry`,
          'FROZEN_MODEL_SNAPSHOTS',
        );
      }
    }
    this.frozen = new Set(frozenSnapshots.map((s) => `${s.family}:${s.version}`));
  }

  private find(family: string, version: string): ModelVersion | undefined {
    return this.byFamily.get(family)?.find((v) => v.version === version);
  }

  private isFrozen(version: ModelVersion): boolean {
    return this.frozen.has(`${version.family}:${version.version}`);
  }

  familyInfo(family: string): ModelFamilyInfo {
    const info = this.families.find((f) => f.family === family);
    if (!info) throw new VersionRegistryError(`Unknown model family ${family}`);
    return info;
  }

  stage(family: string, version: string, now: Date): VersionStage | undefined {
    const row = this.find(family, version);
    return row && stageOf(row, this.byFamily.get(family) ?? [], now);
  }

  /** Versions a request may pin now, oldest first, with their stages. */
  available(family: string, now: Date): AvailableVersion[] {
    const versions = this.byFamily.get(family) ?? [];
    return versions
      .map((v) => ({ row: v, stage: stageOf(v, versions, now) }))
      .filter(({ row, stage }) => isPinnableStage(stage, this.isFrozen(row)))
      .map(({ row, stage }) => ({ version: row.version, stage }));
  }

  /** The version a request gets in `family` when it pins nothing. */
  defaultVersion(family: string, now: Date): ResolvedVersion {
    const versions = this.byFamily.get(family) ?? [];
    const row = versions.find((v) => stageOf(v, versions, now) === 'default');
    if (!row) {
      // Only a family whose first version is still in alpha has no default; the registry
      // data is wrong then, not the request.
      throw new ApiError(
        503,
        'NO_DEFAULT_MODEL_VERSION',
        `No ${family} version is the default yet`,
      );
    }
    return this.resolved(row, 'default', false);
  }

  /**
   * The version a request runs with: its pin when given and available, else the default.
   * `loc` is where the pin sits in the body, for the 422 detail.
   */
  resolve(
    family: string,
    requested: string | undefined,
    now: Date,
    loc: (string | number)[],
  ): ResolvedVersion {
    if (requested === undefined) return this.defaultVersion(family, now);
    const row = this.find(family, requested);
    const versions = this.byFamily.get(family) ?? [];
    const stage = row ? stageOf(row, versions, now) : undefined;
    if (row && stage && isPinnableStage(stage, this.isFrozen(row))) {
      return this.resolved(row, stage, true);
    }
    const available = this.available(family, now);
    const list = available.map((a) => `${a.version} (${a.stage})`).join(', ');
    let msg: string;
    let type: string;
    if (!row) {
      msg = `Unknown ${family} version "${requested}"`;
      type = 'model_version_unknown';
    } else if (stage === 'removed') {
      const removedFrom = scheduleOf(row, versions).removedFrom;
      msg = `${family} version "${requested}" was removed on ${removedFrom}`;
      type = 'model_version_removed';
    } else {
      msg = `${family} version "${requested}" is not released yet (rollout starts ${row.rolloutStart})`;
      type = 'model_version_unavailable';
    }
    throw new RequestValidationError([
      {
        loc,
        msg: `${msg}. Available versions: ${list || 'none'}`,
        type,
        input: requested,
        ctx: { family, available },
      },
    ]);
  }

  private resolved(row: ModelVersion, stage: VersionStage, pinned: boolean): ResolvedVersion {
    return {
      family: row.family,
      version: row.version,
      engine: row.engine,
      stage,
      pinned,
      frozenSnapshot: stage === 'removed',
    };
  }

  listing(now: Date): FamilyListing[] {
    return this.families.map((family) => {
      const versions = this.byFamily.get(family.family) ?? [];
      const listed = versions.map((row): VersionListing => {
        const stage = stageOf(row, versions, now);
        const frozen = stage === 'removed' && this.isFrozen(row);
        return {
          version: row.version,
          stage,
          pinnable: family.pinField !== null && isPinnableStage(stage, frozen),
          frozen_snapshot: frozen,
          notes: row.notes,
          ...snakeSchedule(scheduleOf(row, versions)),
        };
      });
      return {
        family: family.family,
        pin_field: family.pinField,
        description: family.description,
        default: listed.find((v) => v.stage === 'default')?.version ?? null,
        versions: listed,
      };
    });
  }
}
