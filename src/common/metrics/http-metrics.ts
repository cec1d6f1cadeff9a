import type { FastifyInstance } from 'fastify';
import type { MetricsService } from './metrics.service.js';

/** Seconds; from a health probe (~1 ms) to a sync document request near its time limit. */
const BUCKETS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 300];

/**
 * `docproc_http_request_duration_seconds{method,route,status_code}`: every answered request,
 * labelled by its route template (`/job/:id`, never the id itself, so the series stay
 * few); requests no route matched count under `unmatched`.
 */
export function recordHttpMetrics(fastify: FastifyInstance, metrics: MetricsService): void {
  const duration = metrics.histogram({
    name: 'docproc_http_request_duration_seconds',
    help: 'HTTP requests answered, by method, route template and status code, with their duration',
    labelNames: ['method', 'route', 'status_code'],
    buckets: BUCKETS,
  });
  // A callback hook: an async one cost a promise on every request (record 0474).
  fastify.addHook('onResponse', (request, reply, done) => {
    duration.observe(
      {
        method: request.method,
        route: request.routeOptions.url ?? 'unmatched',
        status_code: String(reply.statusCode),
      },
      reply.elapsedTime / 1000,
    );
    done();
  });
}
