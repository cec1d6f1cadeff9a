import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger, PinoLogger } from 'nestjs-pino';
import { trackAllowedMethods } from './common/http/allowed-methods.js';
import { boundDrainOnClose, requestTimeoutOptions } from './common/http/connection-lifetimes.js';
import { reserveFrontRequestHook } from './common/http/front-request-hook.js';
import { clientErrorHandler, frameworkErrors } from './common/http/framework-errors.js';
import { logLeanRouteAccess } from './common/logging/lean-access-log.js';
import { recordHttpMetrics } from './common/metrics/http-metrics.js';
import { MetricsService } from './common/metrics/metrics.service.js';
import { SHUTDOWN_SIGNALS } from './common/shutdown-signals.js';
import { requestIdOf } from './common/request-id.js';
import type { AppConfig } from './config/app-config.js';
import { AppModule, type AppOverrides } from './app.module.js';
import { ExportReplicaAppModule } from './app.export-replica.module.js';
import { UsageExportEarlyAnswer } from './usage/export/usage-export.early-answer.js';
import { serveOpenApi, trackRoutes } from './processing/versions/api-description.js';
import { serveReferencePage } from './processing/versions/reference-page.js';

/**
 * The Fastify adapter of the HTTP application: requests bounded in time, and a close
 * bounded in time whatever connections are open.
 */
export function createHttpAdapter(
  config: Pick<AppConfig, 'requestTimeoutMs' | 'shutdownDrainMs'>,
): FastifyAdapter {
  const adapter = new FastifyAdapter({
    bodyLimit: 10 * 1024 * 1024,
    ...requestTimeoutOptions(config.requestTimeoutMs),
    genReqId: requestIdOf,
    // A path parameter may carry a metadata key of 256 code points, percent-encoded (up to
    // 12 characters each); Fastify's default of 100 answered 414 for keys the API accepts.
    routerOptions: { maxParamLength: 3072 },
    frameworkErrors,
    clientErrorHandler,
  });
  boundDrainOnClose(adapter.getInstance(), config.shutdownDrainMs);
  // Before the application exists: Nest adds its middleware runner while creating it.
  reserveFrontRequestHook(adapter.getInstance());
  return adapter;
}

/**
 * What every instance of the HTTP application gets, however its module was compiled (the
 * e2e tests compile it with overridden providers). The app must be created with
 * `bufferLogs: true` and the adapter of createHttpAdapter.
 */
export function configureApp(app: NestFastifyApplication): NestFastifyApplication {
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks(SHUTDOWN_SIGNALS);
  const fastify = app.getHttpAdapter().getInstance();
  // A callback hook, not an async one: on every request an async hook costs a promise (and
  // the AsyncLocalStorage hook's work on it) and puts the write of the answer behind a
  // microtask (docs/decisions/0474-per-request-hooks-without-promises.md).
  fastify.addHook('onSend', (request, reply, payload, done) => {
    void reply.header('x-request-id', request.id);
    done(null, payload);
  });
  recordHttpMetrics(fastify, app.get(MetricsService));
  logLeanRouteAccess(fastify, () => PinoLogger.root);
  trackRoutes(app);
  app.get(UsageExportEarlyAnswer, { strict: false }).attach(fastify);
  trackAllowedMethods(fastify);
  serveOpenApi(app);
  serveReferencePage(app);
  return app;
}

/** Builds the HTTP application; shared by `main.ts` and the e2e tests. */
export async function createApp(
  config: AppConfig,
  overrides: AppOverrides = {},
): Promise<NestFastifyApplication> {
  const app = await NestFactory.create<NestFastifyApplication>(
    config.usage.snapshots.mode === 'export-replica'
      ? ExportReplicaAppModule.forRoot(config)
      : AppModule.forRoot(config, overrides),
    createHttpAdapter(config),
    { bufferLogs: true },
  );
  return configureApp(app);
}
