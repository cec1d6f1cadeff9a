import type { FastifyRequest } from 'fastify';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import type { OpenAPIObject } from '@nestjs/swagger';

const METHODS = ['get', 'put', 'post', 'delete', 'patch'] as const;

/** A route's declared query parameters: name -> whether it takes a list (repeated). */
type Declared = Map<string, boolean>;

/** For each route that declares query parameters (`GET /jobs` as Fastify writes it): them. */
function declaredQueryParameters(document: OpenAPIObject): Map<string, Declared> {
  const byRoute = new Map<string, Declared>();
  for (const [path, item] of Object.entries(document.paths)) {
    const route = path.replace(/\{(\w+)\}/g, ':$1');
    for (const method of METHODS) {
      const declared: Declared = new Map();
      for (const p of item[method]?.parameters ?? []) {
        if (!('in' in p) || p.in !== 'query') continue;
        const schema = (p.schema ?? {}) as { type?: unknown };
        declared.set(p.name, schema.type === 'array');
      }
      if (declared.size > 0) byRoute.set(`${method.toUpperCase()} ${route}`, declared);
    }
  }
  return byRoute;
}

/** The HTTPValidationError items of a processing query: unknown names, repeated single values. */
function processingIssues(query: Record<string, unknown>, declared: Declared): object[] {
  return Object.entries(query).flatMap(([name, value]) => {
    if (!declared.has(name)) {
      return [
        {
          loc: ['query', name],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: echo(value),
        },
      ];
    }
    if (Array.isArray(value) && !declared.get(name)) {
      return [
        {
          loc: ['query', name],
          msg: 'Input should be a single value, not repeated',
          type: 'string_type',
          input: value.slice(0, 10).map(echo),
        },
      ];
    }
    return [];
  });
}

/**
 * An operation that declares its query parameters takes no others: a misspelt or unknown
 * one is a 422 naming it (HTTPValidationError `extra_forbidden` on the processing API, the
 * error envelope on the dashboard API), as unknown body fields are, instead of being
 * ignored. On the processing API a single-valued parameter given twice is a 422 too (the
 * dashboard's export parser answers its own 400 for that). Operations that declare no query
 * parameters are left alone.
 */
export function refuseUnknownQueryParameters(
  app: NestFastifyApplication,
  document: () => OpenAPIObject,
  isProcessing: (path: string) => boolean,
): void {
  let declared: Map<string, Declared> | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    // A callback hook: an async one cost a promise on every request, most of which it
    // passes on (docs/decisions/0474-per-request-hooks-without-promises.md).
    .addHook('preHandler', (request, reply, done) => {
      let refusal: object | undefined;
      try {
        refusal = queryRefusal(request);
      } catch (error) {
        done(error as Error);
        return;
      }
      if (refusal === undefined) done();
      else void reply.code(422).send(refusal);
    });

  /** The 422 body for the request's query parameters; undefined when they are acceptable. */
  function queryRefusal(request: FastifyRequest): object | undefined {
    const route = request.routeOptions.url;
    if (!route) return undefined;
    const query = (request.query ?? {}) as Record<string, unknown>;
    // A request without query parameters has none to refuse. Answered before the document
    // is looked at, so the first requests after start (the health probes) do not wait while
    // it is built (a whole scan of the controllers, on the event loop); the first request
    // that carries a query builds it.
    if (isEmpty(query)) return undefined;
    declared ??= declaredQueryParameters(document());
    const method = request.method === 'HEAD' ? 'GET' : request.method;
    const parameters = declared.get(`${method} ${route}`);
    if (!parameters) return undefined;
    if (isProcessing(route)) {
      const issues = processingIssues(query, parameters);
      return issues.length === 0 ? undefined : { detail: issues.slice(0, 50) };
    }
    const unknown = Object.keys(query).filter((name) => !parameters.has(name));
    if (unknown.length === 0) return undefined;
    return {
      error: {
        code: 'UNKNOWN_QUERY_PARAMETER',
        message: `Unknown query parameter(s): ${unknown.slice(0, 20).join(', ')}`,
        parameters: unknown.slice(0, 50),
      },
    };
  }
}

function isEmpty(query: Record<string, unknown>): boolean {
  for (const name in query) if (Object.hasOwn(query, name)) return false;
  return true;
}

/** A parameter's value as echoed in a 422: cut short, so the answer stays small. */
function echo(value: unknown): unknown {
  return typeof value === 'string' && value.length > 256 ? `${value.slice(0, 256)}...` : value;
}
