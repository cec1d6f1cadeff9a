import { Inject, Injectable, OnModuleInit } from '@nestjs/common';
import { parse as parseCookies, serialize as serializeCookie } from 'cookie';
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../common/api-error.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { ApiKeyService } from '../keys/api-key.service.js';
import type { AccountPrincipal } from '../principal.js';
import { crossSiteRefusal, originOf, SAFE_METHODS } from './csrf.js';
import {
  CSRF_HEADER,
  csrfTokenFor,
  csrfTokenMatches,
  SESSION_COOKIE,
  SESSION_TTL_SECONDS,
  signSession,
  verifySession,
} from './session-cookie.js';
import { SessionSecretRepository } from './session-secret.repository.js';

interface IssuedSession {
  /** The `Set-Cookie` header value. */
  setCookie: string;
  csrfToken: string;
  expiresAt: string;
}

interface ActiveSession {
  principal: AccountPrincipal;
  csrfToken: string;
  expiresAt: string;
}

/**
 * The account dashboard's browser session: an account key exchanged once for an HTTP-only,
 * `SameSite=Strict`, HMAC-signed cookie. A valid cookie stands for that key (while the key
 * is live); state-changing calls also need the session's CSRF token and a same-site origin.
 */
@Injectable()
export class SessionCookieService implements OnModuleInit {
  private secret!: Buffer;

  constructor(
    private readonly secrets: SessionSecretRepository,
    private readonly keys: ApiKeyService,
    @Inject(APP_CONFIG) private readonly config: AppConfig,
  ) {}

  async onModuleInit(): Promise<void> {
    this.secret = await this.secrets.getOrCreate('dashboard_session_key');
  }

  /** Exchanges a valid account key for a session; 401 for anything else. */
  async signIn(request: FastifyRequest, accountKey: string): Promise<IssuedSession> {
    const refusal = this.crossSite(request);
    if (refusal) throw ApiError.forbidden('CROSS_SITE_REQUEST', refusal);
    const principal = await this.keys.verifyAccountKey(accountKey);
    if (!principal) {
      throw ApiError.unauthorized('The account API key is invalid or revoked');
    }
    const expiresAt = Math.floor(Date.now() / 1000) + SESSION_TTL_SECONDS;
    const value = signSession(this.secret, { keyId: principal.keyId, expiresAt });
    return {
      setCookie: this.cookie(request, value, SESSION_TTL_SECONDS),
      csrfToken: csrfTokenFor(this.secret, value),
      expiresAt: new Date(expiresAt * 1000).toISOString(),
    };
  }

  /** The `Set-Cookie` value that removes the session cookie. */
  clearCookie(request: FastifyRequest): string {
    return this.cookie(request, '', 0);
  }

  /**
   * The session a request's cookie stands for. Null when it sends no session cookie (the
   * guard then asks for a key); 401 when the cookie is forged, expired or its key revoked;
   * 403 when a state-changing request lacks the CSRF token or comes from another site.
   */
  async authenticate(request: FastifyRequest): Promise<ActiveSession | null> {
    const value = this.cookieValue(request);
    if (value === null) return null;
    const claims = verifySession(this.secret, value, Math.floor(Date.now() / 1000));
    const principal = claims ? await this.keys.accountPrincipalOfKey(claims.keyId) : null;
    if (!claims || !principal) {
      throw ApiError.unauthorized(
        'The dashboard session has expired or its account key was revoked; sign in again',
      );
    }
    if (!SAFE_METHODS.has(request.method.toUpperCase())) {
      const refusal = this.crossSite(request);
      if (refusal) throw ApiError.forbidden('CROSS_SITE_REQUEST', refusal);
      if (!csrfTokenMatches(this.secret, value, request.headers[CSRF_HEADER])) {
        throw ApiError.forbidden(
          'CSRF_TOKEN_INVALID',
          `A state-changing dashboard request must send the session's token in the ${CSRF_HEADER} header`,
        );
      }
    }
    return {
      principal,
      csrfToken: csrfTokenFor(this.secret, value),
      expiresAt: new Date(claims.expiresAt * 1000).toISOString(),
    };
  }

  private cookieValue(request: FastifyRequest): string | null {
    const header = request.headers.cookie;
    if (!header) return null;
    const value = parseCookies(header)[SESSION_COOKIE];
    return value ? value : null;
  }

  private cookie(request: FastifyRequest, value: string, maxAge: number): string {
    return serializeCookie(SESSION_COOKIE, value, {
      httpOnly: true,
      sameSite: 'strict',
      path: '/',
      maxAge,
      secure: this.isHttps(request),
    });
  }

  private isHttps(request: FastifyRequest): boolean {
    return request.protocol === 'https' || this.config.publicBaseUrl.startsWith('https:');
  }

  private crossSite(request: FastifyRequest): string | null {
    const own = [originOf(this.config.publicBaseUrl)];
    if (request.headers.host) own.push(`${request.protocol}://${request.headers.host}`);
    return crossSiteRefusal({
      method: request.method,
      origin: header(request, 'origin'),
      fetchSite: header(request, 'sec-fetch-site'),
      ownOrigins: own.filter((o): o is string => o !== null),
    });
  }
}

function header(request: FastifyRequest, name: string): string | undefined {
  const value = request.headers[name];
  return Array.isArray(value) ? value[0] : value;
}
