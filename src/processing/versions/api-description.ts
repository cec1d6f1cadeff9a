import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { DocumentBuilder, SwaggerModule, type OpenAPIObject } from '@nestjs/swagger';
import { apiVersion } from './api-version.js';

/**
 * The OpenAPI document, generated from the controllers and DTOs when the app is built and
 * served at `/openapi.json`. `info.version` is the API description version.
 */
export function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const config = new DocumentBuilder()
    .setTitle('docproc')
    .setDescription('Document-processing API: classify, parse, extract, split; usage export.')
    .setVersion(apiVersion())
    .addBearerAuth({ type: 'http', scheme: 'bearer' }, 'SkippableHTTPBearer')
    .build();
  return SwaggerModule.createDocument(app, config);
}

const routesByApp = new WeakMap<NestFastifyApplication, { method: string; path: string }[]>();

/**
 * Records every route the HTTP server registers (call before the app initializes), so a
 * spec can check that the OpenAPI document covers all of them.
 */
export function trackRoutes(app: NestFastifyApplication): void {
  const routes: { method: string; path: string }[] = [];
  routesByApp.set(app, routes);
  app
    .getHttpAdapter()
    .getInstance()
    .addHook('onRoute', (route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      for (const method of methods) routes.push({ method: String(method), path: route.url });
    });
}

export function registeredRoutes(app: NestFastifyApplication): { method: string; path: string }[] {
  return [...(routesByApp.get(app) ?? [])];
}

export function serveOpenApi(app: NestFastifyApplication): void {
  let document: OpenAPIObject | undefined;
  app
    .getHttpAdapter()
    .getInstance()
    .get('/openapi.json', async (_request, reply) => {
      // Built on first request, once every module's routes are registered.
      document ??= buildOpenApiDocument(app);
      return reply.header('content-type', 'application/json; charset=utf-8').send(document);
    });
}
