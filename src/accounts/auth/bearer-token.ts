import type { FastifyRequest } from 'fastify';
import type { Principal } from '../principal.js';

/** The request as the guards leave it: with the principal the key stands for. */
export type AuthenticatedRequest = FastifyRequest & { principal?: Principal };

/**
 * The token of an `Authorization: Bearer <token>` header; null when the header is absent,
 * `''` when it is present but not a usable bearer credential (so callers can tell
 * "no key" from "bad key").
 */
export function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (header === undefined) return null;
  const match = /^Bearer[ ]+(\S+)[ ]*$/i.exec(header);
  return match ? match[1] : '';
}
