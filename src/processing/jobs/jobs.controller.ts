import {
  Controller,
  Delete,
  Get,
  HttpCode,
  Param,
  Post,
  Query,
  Res,
  type StreamableFile,
  UseGuards,
} from '@nestjs/common';
import type { FastifyReply } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { RequestValidationError } from '../../common/validation-error.js';
import type { ValidationErrorItem } from '../../common/validation-error.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import { ApiOkResponse, ApiOperation, ApiQuery, ApiTags } from '@nestjs/swagger';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import {
  CancelJobBody,
  DeleteJobBody,
  JobBody,
  JobListBody,
  OPERATION_RESPONSE,
} from '../responses/job.responses.js';
import { JobView } from './job.presenter.js';
import { JobListQuery, JobsService } from './jobs.service.js';
import {
  ApiPageQuery,
  LIST_PAGE_SIZE_TEXT,
  readPageCursorText,
  readPageLimit,
} from '../core/list-page.js';

const DOCX_TYPE = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

/** `limit`, `cursor`, `exclude_configs` as the reductoai SDK sends them. */
function parseListQuery(query: Record<string, unknown>): JobListQuery {
  const issues: ValidationErrorItem[] = [];
  const limit = readPageLimit(query.limit);
  if ('issue' in limit) issues.push(limit.issue);
  let excludeConfigs = false;
  if (query.exclude_configs !== undefined) {
    const raw = String(query.exclude_configs).toLowerCase();
    if (['true', '1', 'yes', 'on'].includes(raw)) excludeConfigs = true;
    else if (!['false', '0', 'no', 'off'].includes(raw)) {
      issues.push({
        loc: ['query', 'exclude_configs'],
        type: 'bool_parsing',
        msg: 'Input should be a valid boolean, unable to interpret input',
        input: query.exclude_configs,
      });
    }
  }
  if (issues.length || 'issue' in limit) throw new RequestValidationError(issues);
  return { cursor: readPageCursorText(query.cursor), limit: limit.limit, excludeConfigs };
}

@ApiTags('jobs')
@ApiProcessingAuth()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class JobsController {
  constructor(private readonly jobs: JobsService) {}

  @Get('job/:job_id')
  @ApiOperation({ summary: 'Get a job: status, and its result once Completed' })
  @ApiOkResponse({ type: JobBody })
  @ApiErrors(404)
  get(
    @Param('job_id') jobId: string,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<JobView | StreamableFile> {
    return this.jobs.view(principal.orgId, jobId);
  }

  @Get('jobs')
  @ApiOperation({
    summary: "List the organization's jobs, newest first",
    description:
      'At most `limit` jobs, fewer when their requests (`raw_config`) pass ' +
      `${LIST_PAGE_SIZE_TEXT} (at least one): \`next_cursor\` asks for the rest.`,
  })
  @ApiPageQuery()
  @ApiQuery({
    name: 'exclude_configs',
    required: false,
    schema: { type: 'boolean', default: false },
    description: 'Leave `raw_config` empty',
  })
  @ApiOkResponse({ type: JobListBody })
  @ApiValidationError()
  list(
    @Query() query: Record<string, unknown>,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ) {
    return this.jobs.list(principal.orgId, parseListQuery(query));
  }

  @Post('cancel/:job_id')
  @HttpCode(200)
  @ApiOperation({ summary: 'Cancel a queued or running job' })
  @ApiOkResponse({ type: CancelJobBody })
  @ApiErrors(404, 409)
  cancel(@Param('job_id') jobId: string, @CurrentPrincipal() principal: ProcessingPrincipal) {
    return this.jobs.cancel(principal.orgId, jobId);
  }

  @Delete('job/:job_id')
  @ApiOperation({ summary: 'Delete a job and its result (recorded usage stays)' })
  @ApiOkResponse({ type: DeleteJobBody })
  @ApiErrors(404)
  remove(@Param('job_id') jobId: string, @CurrentPrincipal() principal: ProcessingPrincipal) {
    return this.jobs.delete(principal.orgId, jobId);
  }
}

/** `force_url_result` URLs: authorized by their signature, so no bearer key is needed. */
@ApiTags('jobs')
@Controller()
export class JobResultController {
  constructor(private readonly jobs: JobsService) {}

  @Get('job/:job_id/result')
  @ApiOperation({
    summary: 'The full result behind a `force_url_result` URL',
    description: 'Authorized by the signature in the URL; no bearer key.',
  })
  @ApiQuery({ name: 'expires', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'signature', required: true, schema: { type: 'string' } })
  @ApiOkResponse({ schema: OPERATION_RESPONSE, description: 'The operation response' })
  @ApiErrors(403, 404)
  result(
    @Param('job_id') jobId: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
  ): Promise<StreamableFile> {
    return this.jobs.signedResult(jobId, expires, signature);
  }

  @Get('job/:job_id/document')
  @ApiOperation({
    summary: 'The document an edit job made, behind its `document_url`',
    description: 'Authorized by the signature in the URL; no bearer key.',
  })
  @ApiQuery({ name: 'expires', required: true, schema: { type: 'string' } })
  @ApiQuery({ name: 'signature', required: true, schema: { type: 'string' } })
  @ApiOkResponse({
    description: 'The edited document (PDF or DOCX)',
    content: {
      'application/pdf': { schema: { type: 'string', format: 'binary' } },
      [DOCX_TYPE]: { schema: { type: 'string', format: 'binary' } },
    },
  })
  @ApiErrors(403, 404)
  async document(
    @Param('job_id') jobId: string,
    @Query('expires') expires: unknown,
    @Query('signature') signature: unknown,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<Buffer> {
    const document = await this.jobs.signedDocument(jobId, expires, signature);
    void reply
      .header('content-type', document.contentType)
      .header('content-disposition', `attachment; filename="${document.fileName}"`);
    return document.bytes;
  }
}
