import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** For each route that declares query parameters (`GET /jobs` as Fastify writes it): their names. */
function declaredQueryNames(document: OpenAPIObject): Map<string, Set<string>> {
  const byRoute = new Map<string, Set<string>>();
  for (const [path, item] of Object.entries(document.paths)) {
    const route = path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of METHODS) {
      const names = (item[method]?.parameters ?? [])
        .filter((p) => 'in' in p && p.in === 'query')
        .map((p) => ('name' in p ? p.name : ''));
      if (names.length > 0) byRoute.set(`${method.toUpperCase()} ${route}`, new Set(names));
    }
  }
  return byRoute;
}

/**
 * An operation that declares its query parameters takes no others: a misspelt or unknown
 * one is a 422 naming it (HTTPValidationError `extra_forbidden` on the processing API, the
 * error envelope on the dashboard API), as unknown body fields are, instead of being
 * ignored. Operations that declare no query parameters are left alone.
 */
export function refuseUnknownQueryParameters(
  app: NestFastifyApplication,
  document: () => OpenAPIObject,
  isProcessing: (path: string) => boolean,
): void {
  let declared: Map<string, Set<string>> | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('preHandler', async (request, reply) => {
      const route = request.routeOptions.url;
      if (!route) return;
      declared ??= declaredQueryNames(document());
      const method = request.method === 'HEAD' ? 'GET' : request.method;
      const names = declared.get(`${method} ${route}`);
      if (!names) return;
      const query = (request.query ?? {}) as Record<string, unknown>;
      const unknown = Object.keys(query).filter((name) => !names.has(name));
      if (unknown.length === 0) return;
      const body = isProcessing(route)
        ? {
            detail: unknown.slice(0, 50).map((name) => ({
              loc: ['query', name],
              msg: 'Extra inputs are not permitted',
              type: 'extra_forbidden',
              input: echo(query[name]),
            })),
          }
        : {
            error: {
              code: 'UNKNOWN_QUERY_PARAMETER',
              message: `Unknown query parameter(s): ${unknown.slice(0, 20).join(', ')}`,
              parameters: unknown.slice(0, 50),
            },
          };
      return reply.code(422).send(body);
    });
}

/** A parameter's value as echoed in a 422: cut short, so the answer stays small. */
function echo(value: unknown): unknown {
  return typeof value === 'string' && value.length > 256 ? `${value.slice(0, 256)}...` : value;
}
