import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Logger } from 'nestjs-pino';
import { requestIdOf } from './common/request-id.js';
import type { AppConfig } from './config/app-config.js';
import { AppModule, type AppOverrides } from './app.module.js';
import { serveOpenApi, trackRoutes } from './processing/versions/api-description.js';

/** Builds the HTTP application; shared by `main.ts` and the e2e tests. */
export async function createApp(
  config: AppConfig,
  overrides: AppOverrides = {},
): Promise<NestFastifyApplication> {
  const adapter = new FastifyAdapter({
    bodyLimit: 10 * 1024 * 1024,
    genReqId: requestIdOf,
  });
  const app = await NestFactory.create<NestFastifyApplication>(
    AppModule.forRoot(config, overrides),
    adapter,
    {
      bufferLogs: true,
    },
  );
  app.useLogger(app.get(Logger));
  app.enableShutdownHooks();
  const fastify = app.getHttpAdapter().getInstance();
  fastify.addHook('onSend', async (request, reply) => {
    void reply.header('x-request-id', request.id);
  });
  trackRoutes(app);
  serveOpenApi(app);
  return app;
}
