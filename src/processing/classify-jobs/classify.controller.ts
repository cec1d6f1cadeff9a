import type { SyncAnswer } from '../jobs/job-pipeline.js';
import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { abortWhenClientLeaves } from '../requests/client-disconnect.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { ClassifyJobsService } from './classify-jobs.service.js';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import { ApiJsonBody } from '../requests/request-schema.js';
import { AsyncJobResponseBody } from '../responses/result.responses.js';
import { ClassifyResponseBody } from '../responses/classify.responses.js';
import { ClassifyConfigDto } from '../operations/classify/classify-request.dto.js';

const classifyBody = new ValidatedBodyPipe(ClassifyConfigDto);

@ApiTags('classify')
@ApiProcessingAuth()
@ApiValidationError()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class ClassifyController {
  constructor(private readonly classify: ClassifyJobsService) {}

  @Post('classify')
  @HttpCode(200)
  @ApiOperation({ summary: 'Classify a document into one of the given categories, and wait' })
  @ApiJsonBody(ClassifyConfigDto)
  @ApiOkResponse({ type: ClassifyResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  run(
    @Body(classifyBody) config: ClassifyConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.classify.runSync(principal, config, abortWhenClientLeaves(reply));
  }

  @Post('classify_async')
  @HttpCode(200)
  @ApiOperation({ summary: 'Classify as a job; returns job_id' })
  @ApiJsonBody(ClassifyConfigDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  runAsync(
    @Body(classifyBody) config: ClassifyConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.classify.submitAsync(principal, config);
  }
}
