import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import type { SyncAnswer } from '../jobs/job-pipeline.js';
import { AsyncJobResponseBody } from '../responses/result.responses.js';
import { ApiJsonBody } from '../requests/request-schema.js';
import {
  ExtractResponseBody,
  ParseResponseBody,
  SplitResponseBody,
} from '../responses/operation.responses.js';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { abortWhenClientLeaves } from '../requests/client-disconnect.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { OperationJobsService } from './operation-jobs.service.js';
import { type OperationKind } from '../../documents/executors/operation.task.js';
import { type OperationBaseDto } from '../requests/operation-requests.dto.js';
import { ExtractConfigDto } from '../operations/extract/extract-request.dto.js';
import { ParseConfigDto } from '../operations/parse/parse-request.dto.js';
import { SplitConfigDto } from '../operations/split/split-request.dto.js';

const parseBody = new ValidatedBodyPipe(ParseConfigDto);
const extractBody = new ValidatedBodyPipe(ExtractConfigDto);
const splitBody = new ValidatedBodyPipe(SplitConfigDto);

/** parse, extract and split: sync (waits for the job) and `_async` (returns `job_id`). */
@ApiTags('operations')
@ApiProcessingAuth()
@ApiValidationError()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class DocumentOperationsController {
  constructor(private readonly operations: OperationJobsService) {}

  private sync(
    kind: OperationKind,
    config: OperationBaseDto,
    principal: ProcessingPrincipal,
    reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.operations.runSync(kind, principal, config, abortWhenClientLeaves(reply));
  }

  @Post('parse')
  @HttpCode(200)
  @ApiJsonBody(ParseConfigDto)
  @ApiOkResponse({ type: ParseResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({
    summary: 'Parse: typed blocks with bounding boxes (pin: settings.alpha.layout_model)',
  })
  parse(
    @Body(parseBody) config: ParseConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.sync('parse', config, principal, reply);
  }

  @Post('parse_async')
  @HttpCode(200)
  @ApiJsonBody(ParseConfigDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({ summary: 'Parse as a job; returns job_id' })
  parseAsync(
    @Body(parseBody) config: ParseConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.operations.submitAsync('parse', principal, config);
  }

  @Post('extract')
  @HttpCode(200)
  @ApiJsonBody(ExtractConfigDto)
  @ApiOkResponse({ type: ExtractResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({
    summary:
      'Extract: schema values with citations (pins: settings.alpha.extract_model, settings.alpha.deep_extract_model)',
  })
  extract(
    @Body(extractBody) config: ExtractConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.sync('extract', config, principal, reply);
  }

  @Post('extract_async')
  @HttpCode(200)
  @ApiJsonBody(ExtractConfigDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({ summary: 'Extract as a job; returns job_id' })
  extractAsync(
    @Body(extractBody) config: ExtractConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.operations.submitAsync('extract', principal, config);
  }

  @Post('split')
  @HttpCode(200)
  @ApiJsonBody(SplitConfigDto)
  @ApiOkResponse({ type: SplitResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({
    summary: 'Split: page ranges per section (pin: top-level alpha.deep_split_model)',
  })
  split(
    @Body(splitBody) config: SplitConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.sync('split', config, principal, reply);
  }

  @Post('split_async')
  @HttpCode(200)
  @ApiJsonBody(SplitConfigDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({ summary: 'Split as a job; returns job_id' })
  splitAsync(
    @Body(splitBody) config: SplitConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.operations.submitAsync('split', principal, config);
  }
}
