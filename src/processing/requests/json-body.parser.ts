import type { FastifyInstance, FastifyRequest } from 'fastify';
import { RequestValidationError } from '../../common/validation-error.js';
import { type JsonShapeLimits, jsonShapeProblems } from './json-shape.js';

/**
 * Replaces Fastify's JSON parser so that malformed JSON on a processing route is a 422
 * `json_invalid` (as FastAPI answers), not a 400. Other planes keep a 400. A body that
 * parses is then checked for depth and unpaired surrogates (see jsonShapeProblems) before
 * any recursive code sees it, with the same split: 422 naming the field, or 400.
 */
export function installJsonBodyParser(
  fastify: FastifyInstance,
  isProcessingRoute: (url: string) => boolean,
  limits: JsonShapeLimits,
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
      // Bodies are read as sent: a compressed one would otherwise be reported as bad JSON.
      const encoding = request.headers['content-encoding'];
      if (encoding !== undefined && encoding.trim().toLowerCase() !== 'identity') {
        done(
          Object.assign(
            new Error(`Content-Encoding ${encoding} is not supported: send the body uncompressed`),
            { statusCode: 415 },
          ),
        );
        return;
      }
      const text = typeof body === 'string' ? body : body.toString('utf8');
      if (text.trim() === '') {
        done(null, undefined);
        return;
      }
      let parsed: unknown;
      try {
        parsed = JSON.parse(text);
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
        return;
      }
      const problems = jsonShapeProblems(parsed, limits);
      if (problems.length === 0) {
        done(null, parsed);
      } else if (isProcessingRoute(request.url)) {
        done(new RequestValidationError(problems));
      } else {
        const first = problems[0];
        done(
          Object.assign(new Error(`Body field ${first.loc.join('.')}: ${first.msg}`), {
            statusCode: 400,
          }),
        );
      }
    },
  );
}
