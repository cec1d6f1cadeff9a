import { Body, Controller, HttpCode, Post, Res, UseGuards } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import type { SyncAnswer } from '../jobs/job-pipeline.js';
import { AsyncJobResponseBody } from '../responses/result.responses.js';
import { abortWhenClientLeaves } from '../requests/client-disconnect.js';
import { ApiJsonBody } from '../requests/request-schema.js';
import { ValidatedBodyPipe } from '../requests/validated-body.pipe.js';
import { EditResponseBody } from '../responses/edit.responses.js';
import { OperationJobsService } from './operation-jobs.service.js';
import { EditConfigDto } from '../operations/edit/edit-request.dto.js';

const editBody = new ValidatedBodyPipe(EditConfigDto);

/** Edit (fill a form): sync (waits for the job) and `_async` (returns `job_id`). */
@ApiTags('operations')
@ApiProcessingAuth()
@ApiValidationError()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class EditController {
  constructor(private readonly operations: OperationJobsService) {}

  @Post('edit')
  @HttpCode(200)
  @ApiJsonBody(EditConfigDto)
  @ApiOkResponse({ type: EditResponseBody })
  @ApiErrors(400, 404, 409, 413, 503)
  @ApiOperation({
    summary:
      'Edit: fill a PDF form (AcroForm, or form_schema boxes) or a DOCX from instructions (pin: top-level alpha.edit_model)',
  })
  edit(
    @Body(editBody) config: EditConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<SyncAnswer> {
    return this.operations.runEditSync(principal, config, abortWhenClientLeaves(reply));
  }

  @Post('edit_async')
  @HttpCode(200)
  @ApiJsonBody(EditConfigDto)
  @ApiOkResponse({ type: AsyncJobResponseBody })
  @ApiErrors(404, 409, 413, 503)
  @ApiOperation({ summary: 'Edit as a job; returns job_id' })
  editAsync(
    @Body(editBody) config: EditConfigDto,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<{ job_id: string }> {
    return this.operations.submitEditAsync(principal, config);
  }
}
