import { Controller, Delete, HttpCode, Param, Post, Query, Req, UseGuards } from '@nestjs/common';
import type { FastifyRequest } from 'fastify';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { CurrentPrincipal } from '../../accounts/auth/current-principal.decorator.js';
import { ProcessingAuthGuard } from '../../accounts/auth/processing-auth.guard.js';
import {
  ApiBody,
  ApiConsumes,
  ApiOkResponse,
  ApiOperation,
  ApiParam,
  ApiProperty,
  ApiQuery,
  ApiTags,
} from '@nestjs/swagger';
import {
  ApiErrors,
  ApiProcessingAuth,
  ApiValidationError,
} from '../../common/openapi/api-responses.js';
import { RequestValidationError } from '../../common/validation-error.js';
import { UploadResponseDto } from '../requests/shared-fields.dto.js';
import { modelName, registerModel } from '../requests/request-validation.js';
import {
  DeletedUpload,
  EXTENSION_PARAMETER_PATTERN,
  FILE_REFERENCE_MAX_CHARS,
  tooLargeError,
  UploadResponse,
  UploadService,
} from './upload.service.js';

registerModel(UploadResponseDto);

class DeletedUploadBody {
  @ApiProperty({ description: 'The deleted upload, as `POST /upload` named it' })
  file_id!: string;

  @ApiProperty({ enum: [true] })
  deleted!: true;
}

/**
 * The multipart file's bytes, failing at its end when the parser cut it at the size limit:
 * the parser ends a too-large file quietly (`truncated`) and reports the limit only on the
 * next part, after the cut file would have been stored.
 */
async function* untruncated(
  file: AsyncIterable<Buffer> & { truncated?: boolean },
  maxBytes: number,
): AsyncGenerator<Buffer> {
  for await (const chunk of file) yield chunk;
  if (file.truncated) throw tooLargeError(maxBytes);
}

@ApiTags('upload')
@ApiProcessingAuth()
@Controller()
@UseGuards(ProcessingAuthGuard)
export class UploadController {
  constructor(private readonly uploads: UploadService) {}

  /**
   * Multipart field `file` -> stored, `presigned_url: null`. No file -> a signed, expiring
   * URL to PUT the bytes to.
   */
  @Post('upload')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Upload a file, or get a presigned URL to PUT it to',
    description:
      'With a multipart `file`: stored, `presigned_url` is null. Without: `presigned_url` ' +
      'is a signed, expiring URL to PUT the bytes to. `file_id` is a document input; its ' +
      'extension tells the types content does not (`csv`, `tsv`, `md`).',
  })
  @ApiConsumes('multipart/form-data')
  @ApiBody({
    required: false,
    schema: {
      type: 'object',
      properties: {
        file: {
          type: 'string',
          format: 'binary',
          minLength: 1,
          description: 'The file, not empty',
        },
      },
      // A multipart body is the file; a request without one asks for a presigned URL.
      required: ['file'],
    },
  })
  @ApiQuery({
    name: 'extension',
    required: false,
    schema: { type: 'string', pattern: EXTENSION_PARAMETER_PATTERN },
    description: "File extension (default: the file name's, else `bin`)",
  })
  @ApiOkResponse({ schema: { $ref: `#/components/schemas/${modelName(UploadResponseDto)}` } })
  @ApiErrors(400, 413)
  @ApiValidationError()
  async upload(
    @Req() request: FastifyRequest,
    @CurrentPrincipal() principal: ProcessingPrincipal,
    @Query('extension') extension?: string,
  ): Promise<UploadResponse> {
    if (request.isMultipart()) {
      let stored: UploadResponse | null = null;
      try {
        for await (const part of request.parts()) {
          if (part.type === 'file' && part.fieldname === 'file' && stored === null) {
            const ext = this.uploads.normalizeExtension(extension || undefined, part.filename);
            stored = await this.uploads.storeUpload(
              principal.orgId,
              ext,
              untruncated(part.file, this.uploads.maxUploadBytes),
            );
          } else if (part.type === 'file') {
            part.file.resume();
          }
        }
      } catch (error) {
        // The request is refused whole: a file stored before the fault goes with it.
        if (stored) await this.uploads.discardUpload(stored);
        // The parser stops at a second file part (`files: 1`), which is no size matter.
        if ((error as { code?: string }).code === 'FST_FILES_LIMIT') {
          throw new RequestValidationError([
            {
              loc: ['body', 'file'],
              msg: 'Send one file per upload: the body has more than one file part',
              type: 'too_long',
              ctx: { max_files: 1 },
            },
          ]);
        }
        if ((error as { statusCode?: number }).statusCode === 413) {
          throw tooLargeError(this.uploads.maxUploadBytes);
        }
        throw error;
      }
      if (stored) return stored;
      // A multipart body is an upload: one without its file is incomplete, not a request for
      // a presigned URL (that is a request without a body).
      throw new RequestValidationError([
        { loc: ['body', 'file'], msg: 'Field required', type: 'missing' },
      ]);
    }
    return this.uploads.createPresigned(
      principal.orgId,
      this.uploads.normalizeExtension(extension || undefined),
    );
  }

  @Delete('upload/:fileId')
  @ApiOperation({
    summary: 'Delete an uploaded file',
    description:
      'The file and its record go and stop counting against the storage quota. Jobs already ' +
      'run keep their results; a job still waiting for the file fails with 404 ' +
      '`FILE_NOT_FOUND`. A presigned upload not sent yet goes too; 409 `UPLOAD_IN_PROGRESS` ' +
      'while its bytes are being PUT.',
  })
  @ApiParam({
    name: 'fileId',
    description: 'The `file_id` of `POST /upload`, with or without its `docproc://` prefix',
    // Bounded as file ids are, so a value past any of them is one a client can draw to be refused.
    schema: { type: 'string', minLength: 1, maxLength: FILE_REFERENCE_MAX_CHARS },
  })
  @ApiOkResponse({ type: DeletedUploadBody })
  @ApiErrors(404, 409)
  remove(
    @Param('fileId') fileId: string,
    @CurrentPrincipal() principal: ProcessingPrincipal,
  ): Promise<DeletedUpload> {
    return this.uploads.deleteUpload(principal.orgId, fileId);
  }
}
