import { STATUS_CODES } from 'node:http';
import type { Socket } from 'node:net';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { clientErrorStatus, errorCodeOfStatus } from './error-statuses.js';

/**
 * Errors Fastify answers before any route runs (a malformed URL, a path parameter past its
 * length limit: 414), in the same error envelope as every other error.
 */
export function frameworkErrors(
  error: FastifyError,
  _request: FastifyRequest,
  reply: FastifyReply,
): void {
  const status = clientErrorStatus(error.statusCode);
  void reply.status(status).send({
    error: { code: errorCodeOfStatus(status), message: clientMessage(error.message) },
  });
}

/**
 * Errors Node's HTTP parser raises on a connection (headers too large: 431, a request that
 * took too long: 408, bytes that are not HTTP: 400), answered in the error envelope before
 * the connection is closed, as Fastify's default handler does with its own body.
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Socket): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, message] =
    error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
      ? [408, 'The request was not received in time']
      : error.code === 'HPE_HEADER_OVERFLOW'
        ? [431, 'The request headers are larger than the limit']
        : [400, 'The request is not valid HTTP'];
  const body = JSON.stringify({ error: { code: errorCodeOfStatus(status), message } });
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n` +
        `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${body}`,
    );
  }
  socket.destroy(error);
}

/** Fastify's messages quote the path; a very long one is cut so the answer stays small. */
function clientMessage(message: string): string {
  return message.length <= 300 ? message : `${message.slice(0, 300)}...`;
}
