import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';
import type {
  ModelFamilyInfo,
  ModelVersion,
} from '../../documents/versions/model-version.types.js';

interface FamilyRow {
  family: string;
  pin_field: string | null;
  description: string;
}

interface VersionRow {
  family: string;
  version: string;
  rollout_start: string;
  engine: string;
  notes: string;
}

@Injectable()
export class ModelVersionRepository {
  constructor(private readonly db: DuckDbService) {}

  async families(): Promise<ModelFamilyInfo[]> {
    const rows = await this.db.all<FamilyRow>(
      'SELECT family, pin_field, description FROM model_families ORDER BY family',
    );
    return rows.map((r) => ({
      family: r.family,
      pinField: r.pin_field,
      description: r.description,
    }));
  }

  async versions(): Promise<ModelVersion[]> {
    const rows = await this.db.all<VersionRow>(
      `SELECT family, version, CAST(rollout_start AS VARCHAR) AS rollout_start, engine, notes
       FROM model_versions ORDER BY family, rollout_start, version`,
    );
    return rows.map((r) => ({
      family: r.family,
      version: r.version,
      rolloutStart: r.rollout_start,
      engine: r.engine,
      notes: r.notes,
    }));
  }
}
