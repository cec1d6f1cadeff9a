import type { FastifyReply } from 'fastify';

/**
 * A signal that aborts when the client goes away before its answer is sent. The response
 * is watched, not the request: the request's own `close` comes once its body has been
 * read, so it cannot tell a client that left while its job waited.
 */
export function abortWhenClientLeaves(reply: FastifyReply): AbortSignal {
  const controller = new AbortController();
  reply.raw.once('close', () => {
    if (!reply.raw.writableFinished) controller.abort();
  });
  return controller.signal;
}
