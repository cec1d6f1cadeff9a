import {
  Body,
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  UseGuards,
} from '@nestjs/common';
import type { SyncAnswer } from '../jobs/job-pipeline.js';
import { ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import { AsyncJobResponseBody } from '../responses/result.responses.js';
import { abortWhenClientLeaves } from '../requests/client-disconnect.js';
import { ApiJsonBody } from '../requests/request-schema.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { CreatePipelineDto } from '../requests/pipeline-definition.dto.js';
import { PipelineJobsService } from './pipeline-jobs.service.js';
import {
  DeletedPipelineBody,
  PipelineBody,
  PipelineListBody,
  PipelineResponseBody,
} from '../responses/pipeline.responses.js';
import { PipelinesService, presentPipeline } from './pipelines.service.js';
import { ApiPageQuery, LIST_PAGE_SIZE_TEXT, readPageQuery } from '../core/list-page.js';
import { PipelineRunDto } from '../operations/pipeline/pipeline-request.dto.js';

const runBody = new ValidatedBodyPipe(PipelineRunDto);

/** Stored pipelines of the key's organization (`/pipelines`). */
@ApiTags('pipelines')
@ApiProcessingAuth()
@Controller('pipelines')
@UseGuards(ProcessingAuthGuard)
export class PipelinesController {
  constructor(private readonly pipelines: PipelinesService) {}

  @Post()
  @HttpCode(201)
  @ApiOperation({
    summary: 'Store a pipeline: parse options, then extract, split or classify steps',
  })
  @ApiJsonBody(CreatePipelineDto)
  @ApiCreatedResponse({ type: PipelineBody })
  @ApiValidationError()
  async create(
    @Body(new ValidatedBodyPipe(CreatePipelineDto)) body: CreatePipelineDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    return presentPipeline(await this.pipelines.create(principal.orgId, body));
  }

  @Get()
  @ApiOperation({
    summary: 'List the stored pipelines',
    description:
      `Oldest first, at most \`limit\`, fewer when their definitions pass ${LIST_PAGE_SIZE_TEXT} ` +
      '(at least one); `next_cursor` asks for the rest.',
  })
  @ApiPageQuery()
  @ApiOkResponse({ type: PipelineListBody })
  @ApiValidationError()
  async list(
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Query() query: Record<string, unknown>,
  ) {
    const page = await this.pipelines.listPage(principal.orgId, readPageQuery(query));
    return { pipelines: page.records.map(presentPipeline), next_cursor: page.nextCursor };
  }

  @Get(':pipeline_id')
  @ApiOperation({ summary: 'A stored pipeline' })
  @ApiOkResponse({ type: PipelineBody })
  @ApiErrors(404)
  async get(
    @Param('pipeline_id') pipelineId: string,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    return presentPipeline(await this.pipelines.get(principal.orgId, pipelineId));
  }

  @Delete(':pipeline_id')
  @ApiOperation({ summary: 'Delete a stored pipeline (runs already accepted still complete)' })
  @ApiOkResponse({ type: DeletedPipelineBody })
  @ApiErrors(404)
  async remove(
    @Param('pipeline_id') pipelineId: string,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    await this.pipelines.delete(principal.orgId, pipelineId);
    return { pipeline_id: pipelineId, deleted: true };
  }
}

/** `/pipeline` (waits for the run) and `/pipeline_async` (returns `job_id`). */
@ApiTags('pipelines')
@ApiProcessingAuth()
@ApiValidationError()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class PipelineRunController {
  constructor(private readonly runs: PipelineJobsService) {}

  @Post('pipeline')
  @HttpCode(200)
  @ApiJsonBody(PipelineRunDto)
  @ApiOkResponse({ type: PipelineResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({ summary: 'Run a stored pipeline on a document' })
  run(
    @Body(runBody) config: PipelineRunDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.runs.runSync(principal, config, abortWhenClientLeaves(reply));
  }

  @Post('pipeline_async')
  @HttpCode(200)
  @ApiJsonBody(PipelineRunDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({ summary: 'Run a stored pipeline as a job; returns job_id' })
  runAsync(
    @Body(runBody) config: PipelineRunDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.runs.submitAsync(principal, config);
  }
}
