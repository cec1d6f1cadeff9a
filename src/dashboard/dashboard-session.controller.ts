import { ApiExcludeController } from '@nestjs/swagger';
import { Body, Controller, Delete, Get, HttpCode, Post, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { SessionCookieService } from '../accounts/auth/session-cookie.service.js';
import { bodyValidationPipe } from '../accounts/dashboard/body-validation.pipe.js';
import { ApiError } from '../common/api-error.js';
import { SignInDto } from './sign-in.dto.js';

/**
 * Sign-in and sign-out of the dashboard page. Signing in exchanges an account key for the
 * session cookie and answers the CSRF token the page sends on state-changing calls.
 */
// The dashboard page's own routes (HTML, assets, cookie session): not part of the API.
@ApiExcludeController()
@Controller('dashboard/session')
export class DashboardSessionController {
  constructor(private readonly sessions: SessionCookieService) {}

  @Post()
  @HttpCode(201)
  async signIn(
    @Req() request: FastifyRequest,
    @Body(bodyValidationPipe()) body: SignInDto,
    @Res({ passthrough: true }) reply: FastifyReply,
  ) {
    const issued = await this.sessions.signIn(request, body.key.trim());
    void reply.header('Set-Cookie', issued.setCookie).header('Cache-Control', 'no-store');
    return { csrfToken: issued.csrfToken, expiresAt: issued.expiresAt };
  }

  /**
   * Who the session stands for, and its CSRF token: how the page resumes after a reload.
   * Answers 200 either way, so a signed-out page is not an error; a cookie that no longer
   * works (expired, key revoked) is cleared and its reason given for the sign-in form.
   */
  @Get()
  async current(@Req() request: FastifyRequest, @Res({ passthrough: true }) reply: FastifyReply) {
    void reply.header('Cache-Control', 'no-store');
    let session;
    try {
      session = await this.sessions.authenticate(request);
    } catch (error) {
      if (!(error instanceof ApiError) || error.getStatus() !== 401) throw error;
      void reply.header('Set-Cookie', this.sessions.clearCookie(request));
      return { signedIn: false, message: messageOf(error) };
    }
    if (!session) return { signedIn: false };
    const { keyId, userId, defaultOrgId } = session.principal;
    return {
      signedIn: true,
      keyId,
      userId,
      defaultOrgId,
      csrfToken: session.csrfToken,
      expiresAt: session.expiresAt,
    };
  }

  /** Signs out: always clears the cookie; a live session must prove it is this page asking. */
  @Delete()
  @HttpCode(204)
  async signOut(
    @Req() request: FastifyRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<void> {
    try {
      await this.sessions.authenticate(request);
    } catch (error) {
      // An expired or revoked session is ended anyway; a cross-site attempt is refused.
      if (!(error instanceof ApiError) || error.getStatus() !== 401) throw error;
    }
    void reply.header('Set-Cookie', this.sessions.clearCookie(request));
  }
}

function messageOf(error: ApiError): string {
  const body = error.getResponse() as { error?: { message?: unknown } };
  return typeof body.error?.message === 'string' ? body.error.message : error.message;
}
