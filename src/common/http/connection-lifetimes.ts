import type { Server } from 'node:http';
import type { FastifyInstance } from 'fastify';

/** Node checks connections for an expired request at most this often (its own default). */
const MAX_CHECK_INTERVAL_MS = 30_000;
/** While closing, keep-alive connections that fall idle are closed this often. */
const IDLE_SWEEP_MS = 250;
/** Node's default time for a request's headers. */
const NODE_HEADERS_TIMEOUT_MS = 60_000;

/**
 * Fastify's server options bounding how long a client may take to send a request: the
 * whole request (headers and body) within `requestTimeoutMs`, else Node raises
 * ERR_HTTP_REQUEST_TIMEOUT, answered 408 by the client error handler. The timeout is given
 * to Node's server constructor (`http`): set afterwards, as Fastify's own `requestTimeout`
 * does, it never cut a request whose body was being read (measured on Node 20 and 22).
 * Node looks for expired requests every `connectionsCheckingInterval`; a tenth of the
 * timeout keeps the answer within 10 % of it.
 */
export function requestTimeoutOptions(requestTimeoutMs: number): {
  requestTimeout: number;
  http: { requestTimeout: number; headersTimeout?: number; connectionsCheckingInterval: number };
} {
  if (requestTimeoutMs === 0) {
    return {
      requestTimeout: 0,
      http: { requestTimeout: 0, connectionsCheckingInterval: MAX_CHECK_INTERVAL_MS },
    };
  }
  return {
    requestTimeout: requestTimeoutMs,
    http: {
      requestTimeout: requestTimeoutMs,
      // Node refuses a headers timeout longer than the request's.
      headersTimeout: Math.min(NODE_HEADERS_TIMEOUT_MS, requestTimeoutMs),
      connectionsCheckingInterval: Math.min(
        MAX_CHECK_INTERVAL_MS,
        Math.max(50, Math.floor(requestTimeoutMs / 10)),
      ),
    },
  };
}

/**
 * A close that ends in bounded time. `server.close()` stops listening and closes the
 * connections idle at that moment, then waits for every other one: a keep-alive
 * connection whose request ends afterwards stays open until the client or the keep-alive
 * timeout (72 s) closes it, and one whose request never ends (a trickling upload) holds
 * the close for ever. From the start of the close, connections are closed as soon as they
 * fall idle, and after `drainMs` every connection left is closed.
 */
export function boundDrainOnClose(fastify: FastifyInstance, drainMs: number): void {
  fastify.addHook('preClose', (done) => {
    drainConnections(fastify.server, drainMs);
    done();
  });
}

function drainConnections(server: Server, drainMs: number): void {
  const sweep = setInterval(() => server.closeIdleConnections(), IDLE_SWEEP_MS);
  const cut = setTimeout(() => server.closeAllConnections(), drainMs);
  sweep.unref();
  cut.unref();
  server.once('close', () => {
    clearInterval(sweep);
    clearTimeout(cut);
  });
}
