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
  const document = SwaggerModule.createDocument(app, config);
  // Routes registered on Fastify directly (outside Nest controllers) are described here.
  document.paths['/upload/{fileId}'] = {
    put: {
      operationId: 'presignedUpload',
      summary: 'Upload the bytes of a file to a presigned upload URL',
      description:
        'Target of the `presigned_url` returned by `POST /upload` without a file. The query ' +
        'carries the signature; the body is the raw file.',
      tags: ['upload'],
      parameters: [
        { name: 'fileId', in: 'path', required: true, schema: { type: 'string' } },
        { name: 'expires', in: 'query', required: true, schema: { type: 'string' } },
        { name: 'signature', in: 'query', required: true, schema: { type: 'string' } },
      ],
      requestBody: {
        required: true,
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      responses: {
        '200': { description: '`{"file_id":"docproc://<id>.<ext>"}`' },
        '403': { description: 'The signature is invalid or expired' },
        '413': { description: 'The file is larger than the upload limit' },
      },
    },
  };
  return document;
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
