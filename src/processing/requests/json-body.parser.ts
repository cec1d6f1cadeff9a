import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../../common/validation-error.js';

/**
 * Replaces Fastify's JSON parser so that malformed JSON on a processing route is a 422
 * `json_invalid` (as FastAPI answers), not a 400. Other planes keep a 400.
 */
export function installJsonBodyParser(
  fastify: FastifyInstance,
  isProcessingRoute: (url: string) => boolean,
): void {
  fastify.removeContentTypeParser('application/json');
  fastify.addContentTypeParser(
    'application/json',
    { parseAs: 'string' },
    (
      request: FastifyRequest,
      body: string | Buffer,
      done: (err: Error | null, body?: unknown) => void,
    ) => {
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      try {
        done(null, JSON.parse(text));
      } catch (error) {
        const reason = error instanceof Error ? error.message : 'invalid JSON';
        if (!isProcessingRoute(request.url)) {
          done(Object.assign(new Error(`Body is not valid JSON: ${reason}`), { statusCode: 400 }));
          return;
        }
        const position = /position (\d+)/.exec(reason);
        done(
          new RequestValidationError([
            {
              loc: position ? ['body', Number(position[1])] : ['body'],
              msg: 'JSON decode error',
              type: 'json_invalid',
              input: {},
              ctx: { error: reason },
            },
          ]),
        );
      }
    },
  );
}
