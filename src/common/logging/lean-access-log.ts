import { RequestMethod } from '@nestjs/common';
import type { FastifyInstance } from 'fastify';
import type { Logger } from 'pino';

/**
 * Routes served without pino-http's per-request middleware. For every request it runs,
 * pino-http builds a child logger bound to the serialized request (header filter, URL
 * redaction, redaction and stringify of the binding) and nestjs-pino opens an
 * AsyncLocalStorage scope for it, even at a level that writes nothing per request: on the
 * cached usage export, whose answer is a map lookup, that was about a tenth of the
 * request's CPU (docs/benchmarks.md). These routes get the access line below instead; a
 * line their handlers log has no request bindings (it goes through the root logger).
 */
export const LEAN_ROUTES: { path: string; method: RequestMethod }[] = [
  { path: 'api/v1/usage/export', method: RequestMethod.GET },
];

const LEAN_URLS = new Set(LEAN_ROUTES.map((route) => `/${route.path}`));

/**
 * The access line of a lean route, as pino-http writes it for the others (`request
 * completed`, `info`; `error` for a 5xx) with `reqId`, `req` (serialized and redacted by
 * the logger's own serializers, only when the line is written), `res.statusCode` and
 * `responseTime` in ms. `logger` is read per response: the root logger exists once the
 * logging middleware was configured.
 */
export function logLeanRouteAccess(
  fastify: FastifyInstance,
  logger: () => Logger | undefined,
): void {
  fastify.addHook('onResponse', (request, reply, done) => {
    const url = request.routeOptions.url;
    const log = url !== undefined && LEAN_URLS.has(url) ? logger() : undefined;
    const level = reply.statusCode >= 500 ? 'error' : 'info';
    if (log?.isLevelEnabled(level)) {
      log[level](
        {
          reqId: request.id,
          req: request.raw,
          res: { statusCode: reply.statusCode },
          responseTime: Math.round(reply.elapsedTime),
        },
        reply.statusCode >= 500 ? 'request errored' : 'request completed',
      );
    }
    done();
  });
}
