import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from 'fastify';
import type { Counter } from 'prom-client';
import { AccountsService } from '../../accounts/accounts.service.js';
import { bearerToken } from '../../accounts/auth/bearer-token.js';
import { ORG_ACCESS, type OrgAccessRule } from '../../accounts/auth/org-access.rule.js';
import { orgAccessRefusal } from '../../accounts/auth/org-role.guard.js';
import { ApiKeyService } from '../../accounts/keys/api-key.service.js';
import { setFrontRequestHook } from '../../common/http/front-request-hook.js';
import { MetricsService } from '../../common/metrics/metrics.service.js';
import { UsageExportMarks } from './usage-export-marks.service.js';
import { UsageExportController } from './usage-export.controller.js';
import { ParsedExportQueries } from './usage-export.parsed-queries.js';
import type { RawQuery } from './usage-export.query.js';
import { prefersCsv, sendExportJson } from './usage-export.reply.js';
import { UsageExportService, type ResolvedExport } from './usage-export.service.js';

const EXPORT_URL = '/api/v1/usage/export';

/**
 * Answers a repeated usage export from the result cache in the route's `onRequest` hook,
 * ahead of Nest's pipeline (guards, parameter decorators, the handler's promises): there a
 * cached answer, a map lookup, spent most of its time and allocation in the framework
 * (docs/decisions/0453-cached-exports-answered-ahead-of-the-pipeline.md).
 *
 * It answers only a request the pipeline would answer 200 with the same bytes, decided by
 * the pipeline's own rules and facts as this process holds them in memory: the account
 * key this process verified (`ApiKeyService`, evicted on revocation), the route's
 * `@OrgAccess` rule and the membership `OrgRoleGuard` reads, the query as the handler
 * parses it, the metadata key known usable, an answer cached at the org's watermark.
 * Anything else (no bearer key, a fact only the store holds, an unknown or repeated
 * parameter, CSV, a request body, a refusal, a miss) goes to the pipeline unchanged, which
 * answers or refuses it as before. Request ids, the access line and the HTTP metrics come
 * from Fastify's hooks, which run for both; the export's days are marked as the handler
 * marks them.
 *
 * It runs in the place `reserveFrontRequestHook` keeps ahead of Nest's middleware runner and
 * `@fastify/multipart`'s request hook, neither of which does anything for this route (its
 * logging middleware is excluded, it takes no upload) but which together allocated about
 * 3 kB per answer (docs/decisions/0463-early-answer-ahead-of-the-middleware-runner.md).
 * A URL asked before reuses its parsed query and cache key (`ParsedExportQueries`).
 */
@Injectable()
export class UsageExportEarlyAnswer {
  /** The route's `@OrgAccess` rule; null (never answer early) unless it reads `orgId` from the query. */
  private readonly access: OrgAccessRule | null;
  private readonly answers: Counter;
  private readonly queries = new ParsedExportQueries();

  constructor(
    private readonly keys: ApiKeyService,
    private readonly accounts: AccountsService,
    private readonly exports: UsageExportService,
    private readonly marks: UsageExportMarks,
    reflector: Reflector,
    metrics: MetricsService,
  ) {
    const rule = reflector.get<OrgAccessRule | undefined>(
      ORG_ACCESS,
      UsageExportController.prototype.export,
    );
    this.access = rule?.from === 'query' && rule.field === 'orgId' ? rule : null;
    this.answers = metrics.counter({
      name: 'docproc_usage_export_early_answers_total',
      help: 'Usage exports answered from the result cache ahead of the request pipeline',
    });
  }

  /**
   * Puts the early answer in the place kept ahead of the middleware runner, or, on an adapter
   * without one, on the export's GET route (after the instance's hooks); call before the app
   * initializes.
   */
  attach(fastify: FastifyInstance): void {
    if (setFrontRequestHook(fastify, this.onAnyRequest)) return;
    fastify.addHook('onRoute', (route) => {
      if (route.url !== EXPORT_URL || route.method !== 'GET') return;
      const hooks = route.onRequest;
      route.onRequest = [...(hooks === undefined ? [] : [hooks].flat()), this.onRequest];
    });
  }

  /** Every request of every route passes here: the export's GET goes on, others at once. */
  private readonly onAnyRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void => {
    // The URL test first: reading the matched route's options builds an object.
    if (
      request.method !== 'GET' ||
      !request.url.startsWith(EXPORT_URL) ||
      request.routeOptions.url !== EXPORT_URL
    ) {
      done();
      return;
    }
    this.onRequest(request, reply, done);
  };

  private readonly onRequest = (
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void => {
    let answer: (ResolvedExport & { body: Buffer }) | undefined;
    try {
      answer = this.cachedAnswer(request);
    } catch {
      // A parameter the handler refuses: its 400 comes from the pipeline.
      answer = undefined;
    }
    if (answer === undefined) {
      done();
      return;
    }
    this.marks.recordExport(answer.orgId, answer.query.startDate, answer.query.endDate);
    this.answers.inc();
    sendExportJson(reply, answer.body);
  };

  private cachedAnswer(request: FastifyRequest): (ResolvedExport & { body: Buffer }) | undefined {
    if (this.access === null) return undefined;
    const headers = request.headers;
    if (headers['content-length'] !== undefined || headers['transfer-encoding'] !== undefined) {
      return undefined;
    }
    if (prefersCsv(headers.accept)) return undefined;
    const token = bearerToken(request);
    const principal = token ? this.keys.knownAccountPrincipal(token) : undefined;
    if (principal === undefined) return undefined;
    const keyed = this.queries.of(request.url, request.query as RawQuery);
    if (keyed === undefined) return undefined;
    const query = keyed.query;
    if (query.orgId !== null) {
      const role = this.accounts.knownRoleOf(principal.userId, query.orgId);
      if (role === undefined || orgAccessRefusal(this.access, query.orgId, role)) return undefined;
    }
    const orgId = this.exports.knownOrg(principal, query);
    if (orgId === undefined) return undefined;
    const body = this.exports.cachedJsonBody(orgId, keyed);
    return body && { orgId, query, body };
  }
}
