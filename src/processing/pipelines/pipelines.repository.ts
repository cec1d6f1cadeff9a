import { Injectable } from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';
import { type PageCursor, rowsWithinPage } from '../core/list-page.js';

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

  /**
   * The organization's pipelines after `after` (oldest first) whose stored definitions fit
   * in a page (`rowsWithinPage`): their sizes are read first, then only the rows taken, so a
   * listing never holds more definitions than that in memory.
   */
  async listPage(
    orgId: string,
    after: PageCursor | null,
    limit: number,
  ): Promise<{ records: (PipelineRecord & { createdAtMicros: bigint })[]; more: boolean }> {
    // One row past `limit` tells whether more follow.
    const sizes = await this.db.all<{ pipeline_id: string; bytes: number | bigint }>(
      `SELECT pipeline_id, strlen(definition) AS bytes FROM pipelines
       WHERE org_id = $1
         AND (CAST($2 AS BIGINT) IS NULL OR epoch_us(created_at) > CAST($2 AS BIGINT)
           OR (epoch_us(created_at) = CAST($2 AS BIGINT) AND pipeline_id > $3))
       ORDER BY created_at, pipeline_id LIMIT $4`,
      [orgId, after ? after.createdAtMicros.toString() : null, after?.id ?? '', limit + 1],
    );
    const taken = await rowsWithinPage(sizes.slice(0, limit), (row) => Number(row.bytes));
    if (taken === 0) return { records: [], more: false };
    const rows = await this.db.all<PipelineRow & { created_us: bigint }>(
      `SELECT ${COLUMNS}, epoch_us(created_at) AS created_us FROM pipelines
       WHERE org_id = $1 AND list_contains(string_split($2, ','), pipeline_id)
       ORDER BY created_at, pipeline_id`,
      [
        orgId,
        sizes
          .slice(0, taken)
          .map((row) => row.pipeline_id)
          .join(','),
      ],
    );
    return {
      records: rows.map((row) => ({ ...toRecord(row), createdAtMicros: BigInt(row.created_us) })),
      more: taken < sizes.length,
    };
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
