import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';

/** A stored pipeline: its definition is the validated body it was created with. */
export interface PipelineRecord {
  pipelineId: string;
  orgId: string;
  name: string;
  definition: Record<string, unknown>;
  createdAt: Date;
}

interface PipelineRow {
  pipeline_id: string;
  org_id: string;
  name: string;
  definition: string;
  created_at: Date;
}

function toRecord(row: PipelineRow): PipelineRecord {
  return {
    pipelineId: row.pipeline_id,
    orgId: row.org_id,
    name: row.name,
    definition: JSON.parse(row.definition) as Record<string, unknown>,
    createdAt: row.created_at,
  };
}

const COLUMNS = 'pipeline_id, org_id, name, definition, created_at';

/** The `pipelines` table: each query scoped to the organization that owns the rows. */
@Injectable()
export class PipelinesRepository {
  constructor(private readonly db: DuckDbService) {}

  async insert(record: PipelineRecord): Promise<void> {
    await this.db.run(
      `INSERT INTO pipelines (${COLUMNS}) VALUES ($1, $2, $3, $4, CAST($5 AS TIMESTAMPTZ))`,
      [
        record.pipelineId,
        record.orgId,
        record.name,
        JSON.stringify(record.definition),
        record.createdAt.toISOString(),
      ],
    );
  }

  async list(orgId: string): Promise<PipelineRecord[]> {
    const rows = await this.db.all<PipelineRow>(
      `SELECT ${COLUMNS} FROM pipelines WHERE org_id = $1 ORDER BY created_at, pipeline_id`,
      [orgId],
    );
    return rows.map(toRecord);
  }

  async find(orgId: string, pipelineId: string): Promise<PipelineRecord | null> {
    const rows = await this.db.all<PipelineRow>(
      `SELECT ${COLUMNS} FROM pipelines WHERE org_id = $1 AND pipeline_id = $2`,
      [orgId, pipelineId],
    );
    return rows.length > 0 ? toRecord(rows[0]) : null;
  }

  /** Whether a pipeline of the organization was deleted. */
  async delete(orgId: string, pipelineId: string): Promise<boolean> {
    const rows = await this.db.runReturning<{ pipeline_id: string }>(
      `DELETE FROM pipelines WHERE org_id = $1 AND pipeline_id = $2 RETURNING pipeline_id`,
      [orgId, pipelineId],
    );
    return rows.length > 0;
  }
}
