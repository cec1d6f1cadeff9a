import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';

/**
 * The API reference page at `/docs`: Swagger UI over `/openapi.json`, its assets served
 * from the `swagger-ui-dist` package (no CDN, works offline). Only the listed files are
 * served. The validator badge is off: it would send the document to an outside service.
 * Every reference is relative to the page (`/docs` resolves `docs/x` and `openapi.json`
 * beside itself), so the page also works behind a proxy that adds a path prefix.
 * `/docs/` redirects to `/docs` with a relative location: served there, the page's
 * references would resolve under `/docs/docs/`.
 */
const SWAGGER_UI_DIR = path.dirname(
  createRequire(import.meta.url).resolve('swagger-ui-dist/package.json'),
);

const ASSETS: Record<string, string> = {
  'swagger-ui.css': 'text/css; charset=utf-8',
  'swagger-ui-bundle.js': 'text/javascript; charset=utf-8',
  'favicon-32x32.png': 'image/png',
};

/** Loaded as a file rather than inline, so the page works under a strict CSP. */
const INITIALIZER = `window.ui = SwaggerUIBundle({
  url: 'openapi.json',
  dom_id: '#swagger-ui',
  deepLinking: true,
  validatorUrl: null,
  persistAuthorization: false,
});
`;

const PAGE = `<!doctype html>
<html lang="en">
  <head>
    <meta charset="utf-8" />
    <meta name="viewport" content="width=device-width, initial-scale=1" />
    <title>docproc API reference</title>
    <link rel="icon" type="image/png" href="docs/favicon-32x32.png" />
    <link rel="stylesheet" href="docs/swagger-ui.css" />
  </head>
  <body>
    <div id="swagger-ui"></div>
    <script src="docs/swagger-ui-bundle.js"></script>
    <script src="docs/init.js"></script>
  </body>
</html>
`;

export function serveReferencePage(app: NestFastifyApplication): void {
  const fastify = app.getHttpAdapter().getInstance();
  fastify.get('/docs', async (_request, reply) =>
    reply.header('content-type', 'text/html; charset=utf-8').send(PAGE),
  );
  fastify.get('/docs/', async (_request, reply) => reply.redirect('../docs', 301));
  fastify.get('/docs/init.js', async (_request, reply) =>
    reply.header('content-type', 'text/javascript; charset=utf-8').send(INITIALIZER),
  );
  fastify.get<{ Params: { asset: string } }>('/docs/:asset', async (request, reply) => {
    const type = Object.hasOwn(ASSETS, request.params.asset)
      ? ASSETS[request.params.asset]
      : undefined;
    if (!type) {
      return reply
        .status(404)
        .send({ error: { code: 'NOT_FOUND', message: 'No such reference page asset' } });
    }
    return reply
      .header('content-type', type)
      .header('cache-control', 'public, max-age=86400')
      .send(fs.createReadStream(path.join(SWAGGER_UI_DIR, request.params.asset)));
  });
}
