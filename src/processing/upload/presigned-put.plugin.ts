import type { FastifyInstance, FastifyReply } from 'fastify';
import { ApiError } from '../../common/api-error.js';
import { HttpStatus } from '../../common/nest-decorators.js';
import { isOutOfSpace, storageFullError } from '../../common/http/storage-full.js';
import type { UploadService } from './upload.service.js';

/**
 * `PUT /upload/:fileId?expires&signature`: the target of a presigned upload URL. An
 * encapsulated Fastify plugin, so its accept-any-body parser (streamed to disk, not
 * buffered) applies to this route only.
 */
export function presignedPutPlugin(uploads: UploadService) {
  return async (scope: FastifyInstance): Promise<void> => {
    scope.removeAllContentTypeParsers();
    scope.addContentTypeParser('*', (_request, payload, done) => done(null, payload));
    scope.put<{ Params: { fileId: string }; Querystring: Record<string, string> }>(
      '/upload/:fileId',
      async (request, reply) => {
        try {
          // A form is how `POST /upload` takes a file; PUT here, its boundaries and part
          // headers would be stored around the file as the document.
          if (/^\s*multipart\//i.test(request.headers['content-type'] ?? '')) {
            throw new ApiError(
              HttpStatus.UNSUPPORTED_MEDIA_TYPE,
              'UNSUPPORTED_MEDIA_TYPE',
              "Send the file's bytes as the body of the PUT, not a multipart form (POST /upload takes a form)",
            );
          }
          await uploads.receivePresigned(
            request.params.fileId,
            request.query.expires,
            request.query.signature,
            request.raw as unknown as AsyncIterable<Buffer>,
          );
          return reply.status(200).send({ file_id: `docproc://${request.params.fileId}` });
        } catch (error) {
          return sendError(reply, error);
        }
      },
    );
  };
}

function sendError(reply: FastifyReply, error: unknown): FastifyReply {
  if (isOutOfSpace(error)) error = storageFullError();
  if (error instanceof ApiError) {
    return reply.headers(error.headers).status(error.getStatus()).send(error.getResponse());
  }
  reply.log.error({ err: error }, 'presigned upload failed');
  return reply.status(500).send({
    error: {
      code: 'INTERNAL_ERROR',
      message: 'Internal server error',
      requestId: reply.request.id,
    },
  });
}
