import { randomUUID } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

const REQUEST_ID = Symbol('docproc.requestId');
type Tagged = IncomingMessage & { [REQUEST_ID]?: string };

/**
 * One id per request, shared by Fastify and the pino request logger: the caller's
 * `x-request-id` when it is well-formed, otherwise a new UUID.
 */
export function requestIdOf(req: IncomingMessage): string {
  const tagged = req as Tagged;
  if (!tagged[REQUEST_ID]) {
    const incoming = req.headers['x-request-id'];
    tagged[REQUEST_ID] =
      typeof incoming === 'string' && /^[\w.-]{1,128}$/.test(incoming) ? incoming : randomUUID();
  }
  return tagged[REQUEST_ID];
}
