import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import {
  DocumentBuilder,
  SwaggerModule,
  type OpenAPIObject,
  type OperationObject,
} from '@nestjs/swagger';
import { ACCOUNT_KEY_SCHEME, PROCESSING_KEY_SCHEME } from '../../common/openapi/api-responses.js';
import { withVisibleTextPatterns } from '../../common/visible-text.js';
import { declareFrameworkResponses } from '../../common/openapi/framework-responses.js';
import type { AppConfig } from '../../config/app-config.js';
import { APP_CONFIG } from '../../config/config.module.js';
import { requestModelSchemas } from '../requests/request-schema.js';
import { applyRequestExamples } from './api-examples.js';
import { applyLinks } from './api-links.js';
import { refuseUnknownQueryParameters } from './query-parameters.js';
import { apiVersion } from './api-version.js';
import { applyOperationIds } from './operation-ids.js';

/**
 * The OpenAPI 3.1 document, generated from the controllers, their response classes and the
 * request models' validation decorators (request-schema.ts) when first requested, and
 * served at `/openapi.json`. `info.version` is the API description version.
 */
function buildOpenApiDocument(app: NestFastifyApplication): OpenAPIObject {
  const { publicBaseUrl } = app.get<AppConfig>(APP_CONFIG);
  const config = new DocumentBuilder()
    .setOpenAPIVersion('3.1.0')
    .setTitle('docproc')
    .setDescription(
      'Document-processing API (classify, parse, extract, split, edit; sync or as jobs with ' +
        'webhooks) and the account dashboard API (keys, usage export). Errors other than ' +
        '422 have the body `{"error":{"code","message",...}}`.',
    )
    .setVersion(apiVersion())
    .addServer(publicBaseUrl)
    .addSecurity(PROCESSING_KEY_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description: 'A processing API key of an organization: `Authorization: Bearer <API_KEY>`.',
    })
    .addSecurity(ACCOUNT_KEY_SCHEME, {
      type: 'http',
      scheme: 'bearer',
      description:
        'A personal account API key from the dashboard key page (not a processing key): ' +
        '`Authorization: Bearer <ACCOUNT_API_KEY>`.',
    })
    .build();
  const document = SwaggerModule.createDocument(app, config);
  document.components = {
    ...document.components,
    schemas: { ...document.components?.schemas, ...requestModelSchemas() },
  };
  withVisibleTextPatterns(document.components.schemas ?? {});
  document.paths['/upload/{fileId}'] = {
    ...document.paths['/upload/{fileId}'],
    put: presignedUploadOperation(),
  };
  markPublicOperations(document);
  declareFrameworkResponses(document, {
    isProcessing,
    readsDocumentsSync: (path, operation) =>
      !path.endsWith('_async') && bodyModelHas(document, operation, 'input'),
  });
  closeDashboardBodies(document);
  applyOperationIds(document.paths);
  applyLinks(document);
  applyRequestExamples(document);
  return document;
}

/** Whether an operation's JSON request body is a model with the property `name`. */
function bodyModelHas(document: OpenAPIObject, operation: OperationObject, name: string): boolean {
  const body = operation.requestBody;
  const schema = body && 'content' in body ? body.content['application/json']?.schema : null;
  const model = schema && '$ref' in schema ? schema.$ref.split('/').pop() : undefined;
  const found = model ? document.components?.schemas?.[model] : undefined;
  return Boolean(found && 'properties' in found && found.properties?.[name]);
}

/** The processing API's operations; the account dashboard API lives under `/api/v1/`. */
function isProcessing(path: string): boolean {
  return !path.startsWith('/api/v1/');
}

/**
 * The dashboard's body pipe refuses unknown fields and reads an absent body as `{}`
 * (body-validation.pipe.ts), so its request models say so: `additionalProperties: false`,
 * and a body is required only where its model has a required field.
 */
function closeDashboardBodies(document: OpenAPIObject): void {
  const schemas = document.components?.schemas ?? {};
  for (const [path, item] of Object.entries(document.paths)) {
    if (isProcessing(path)) continue;
    for (const operation of [item.post, item.put, item.patch]) {
      const body = operation?.requestBody;
      const schema = body && 'content' in body ? body.content['application/json']?.schema : null;
      const name = schema && '$ref' in schema ? schema.$ref.split('/').pop() : undefined;
      const model = name ? schemas[name] : undefined;
      if (!model || '$ref' in model || !body || !('content' in body)) continue;
      model.additionalProperties = false;
      body.required = (model.required?.length ?? 0) > 0;
    }
  }
}

/**
 * Operations without a security requirement are public (health, versions, signed URLs):
 * said explicitly with `security: []`. The API description spec checks that each of them
 * answers without a key, so a guarded route cannot end up here by omission.
 */
function markPublicOperations(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const method of ['get', 'put', 'post', 'delete', 'patch'] as const) {
      const operation = item[method];
      if (operation && !operation.security) operation.security = [];
    }
  }
}

/** `PUT /upload/{fileId}` is a Fastify route (presigned-put.plugin.ts), outside Nest's scan. */
function presignedUploadOperation(): OperationObject {
  const error = (description: string) => ({
    description,
    content: { 'application/json': { schema: { $ref: '#/components/schemas/ApiError' } } },
  });
  return {
    summary: 'Upload the bytes of a file to a presigned upload URL',
    description:
      'Target of the `presigned_url` returned by `POST /upload` without a file. The query ' +
      'carries the signature (no bearer key); the body is the raw file (a multipart form is refused with 415).',
    tags: ['upload'],
    security: [],
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
      '200': {
        description: 'Stored; use `file_id` as a document input',
        content: {
          'application/json': { schema: { $ref: '#/components/schemas/UploadResponse' } },
        },
      },
      '403': error('The signature is invalid or expired'),
      '404': error('No such upload'),
      '413': error('The file is larger than the upload limit'),
    },
  };
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

const documents = new WeakMap<NestFastifyApplication, OpenAPIObject>();

/** The app's description, built on first use, once every module's routes are registered. */
function openApiDocument(app: NestFastifyApplication): OpenAPIObject {
  let document = documents.get(app);
  if (!document) {
    document = buildOpenApiDocument(app);
    documents.set(app, document);
  }
  return document;
}

export function serveOpenApi(app: NestFastifyApplication): void {
  app
    .getHttpAdapter()
    .getInstance()
    .get('/openapi.json', async (_request, reply) =>
      reply.header('content-type', 'application/json; charset=utf-8').send(openApiDocument(app)),
    );
  refuseUnknownQueryParameters(app, () => openApiDocument(app), isProcessing);
}
