import { randomUUID } from 'node:crypto';
import { HttpStatus, Inject, Injectable } from '@nestjs/common';
import { ApiError } from '../../common/api-error.js';
import { RequestValidationError } from '../../common/validation-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { checkClassifyLimits, type ClassifyLimited } from '../requests/classify-limits.js';
import { VersionRegistry } from '../versions/version-registry.service.js';
import type { CreatePipelineDto } from '../requests/pipeline-definition.dto.js';
import { decodePageCursor, encodePageCursor } from '../core/list-page.js';
import { planPipeline, type PipelinePlan } from '../core/pipeline-plan.js';
import { type PipelineRecord, PipelinesRepository } from './pipelines.repository.js';

type Body = Record<string, unknown>;

/** The JSON of a pipeline definition, as stored and as answered. */
function definitionOf(dto: CreatePipelineDto): Body {
  return JSON.parse(JSON.stringify(dto)) as Body;
}

/**
 * A classify-then-extract branch names categories of its classify step (the rules across
 * steps are the definition's own: pipeline-definition.dto.ts).
 */
function checkBranchCategories(definition: Body): void {
  const errors: RequestValidationError['detail'] = [];
  (definition.steps as Body[]).forEach((step, index) => {
    const classify = step.classify as
      { classification_schema: { category: string }[]; extract_by_category?: Body } | undefined;
    if (!classify) return;
    const categories = new Set(classify.classification_schema.map((c) => c.category));
    for (const category of Object.keys(classify.extract_by_category ?? {})) {
      if (!categories.has(category)) {
        errors.push({
          loc: ['body', 'steps', index, 'classify', 'extract_by_category', category],
          msg: `"${category}" is not a category of this step's classification_schema`,
          type: 'value_error',
        });
      }
    }
  });
  if (errors.length > 0) throw new RequestValidationError(errors);
}

/**
 * A classify step is held to the limits of a classify request (the same settings and rule,
 * the 422 naming the field inside the step), on creation and again on each run, as the
 * settings may have been lowered since the pipeline was stored.
 */
function checkClassifySteps(
  definition: Body,
  limits: AppConfig['processing']['classifyLimits'],
  at: (string | number)[],
): void {
  (definition.steps as Body[]).forEach((step, index) => {
    if (step.classify) {
      checkClassifyLimits(step.classify as ClassifyLimited, limits, [
        ...at,
        'steps',
        index,
        'classify',
      ]);
    }
  });
}

/** Stored pipelines of an organization: created checked, listed, read and deleted. */
@Injectable()
export class PipelinesService {
  constructor(
    private readonly pipelines: PipelinesRepository,
    private readonly registry: VersionRegistry,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async create(orgId: string, dto: CreatePipelineDto): Promise<PipelineRecord> {
    const definition = definitionOf(dto);
    checkBranchCategories(definition);
    checkClassifySteps(definition, this.config.processing.classifyLimits, ['body']);
    // Refuses a definition no run could accept (schemas, pins and their preconditions).
    planPipeline(definition, this.registry);
    const record: PipelineRecord = {
      pipelineId: `pl_${randomUUID()}`,
      orgId,
      name: dto.name,
      definition,
      createdAt: new Date(),
    };
    await this.pipelines.insert(record);
    return record;
  }

  /**
   * A page of the organization's pipelines, oldest first, after `cursor` (the `next_cursor`
   * of the page before): at most `limit`, and as many as fit in a page's bytes of
   * definitions (LIST_PAGE_BYTES), at least one.
   */
  async listPage(
    orgId: string,
    page: { limit: number; cursor: string | null },
  ): Promise<{ records: PipelineRecord[]; nextCursor: string | null }> {
    const after = page.cursor === null ? null : decodePageCursor(page.cursor);
    const { records, more } = await this.pipelines.listPage(orgId, after, page.limit);
    const last = records.at(-1);
    return {
      records,
      nextCursor:
        more && last
          ? encodePageCursor({ createdAtMicros: last.createdAtMicros, id: last.pipelineId })
          : null,
    };
  }

  /** The organization's pipeline; 404 for none, or one of another organization. */
  async get(orgId: string, pipelineId: string): Promise<PipelineRecord> {
    const record = await this.pipelines.find(orgId, pipelineId);
    if (!record) {
      throw new ApiError(HttpStatus.NOT_FOUND, 'PIPELINE_NOT_FOUND', `No pipeline ${pipelineId}`);
    }
    return record;
  }

  async delete(orgId: string, pipelineId: string): Promise<void> {
    if (!(await this.pipelines.delete(orgId, pipelineId))) {
      throw new ApiError(HttpStatus.NOT_FOUND, 'PIPELINE_NOT_FOUND', `No pipeline ${pipelineId}`);
    }
  }

  /**
   * What a run of the pipeline executes, versions resolved now (a version removed since the
   * pipeline was made is a 422 naming where it is pinned in the pipeline).
   */
  async planFor(orgId: string, pipelineId: string): Promise<PipelinePlan> {
    const record = await this.get(orgId, pipelineId);
    const at = ['pipeline', pipelineId];
    checkClassifySteps(record.definition, this.config.processing.classifyLimits, at);
    return planPipeline(record.definition, this.registry, at);
  }
}

/** A stored pipeline as answered. */
export function presentPipeline(record: PipelineRecord): Body {
  return {
    pipeline_id: record.pipelineId,
    ...record.definition,
    created_at: record.createdAt.toISOString(),
  };
}
