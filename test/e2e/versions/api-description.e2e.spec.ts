import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { USAGE_EXPORT_PARAMETERS } from '../../../src/usage/export/usage-export.query.js';
import { startTestApp, TestApp } from '../../support/test-app.js';

// The document is arbitrary JSON that the checks below walk.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;
const METHODS = ['get', 'put', 'post', 'delete', 'patch'];
const REDOCLY = path.resolve('node_modules/@redocly/cli/bin/cli.js');

/** Every operation of the document with its path and method. */
function operations(doc: Json): { method: string; path: string; op: Json }[] {
  return Object.entries(doc.paths as Record<string, Json>).flatMap(([p, item]) =>
    METHODS.filter((m) => item[m]).map((method) => ({ method, path: p, op: item[method] })),
  );
}

describe('the OpenAPI description and the reference page', () => {
  let t: TestApp;
  let doc: Json;
  let dir: string;

  beforeAll(async () => {
    t = await startTestApp();
    const res = await fetch(`${t.baseUrl}/openapi.json`);
    expect(res.status).toBe(200);
    doc = await res.json();
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-openapi-'));
  });
  afterAll(async () => {
    await t.close();
    fs.rmSync(dir, { recursive: true, force: true });
  });

  it('passes Redocly lint (recommended rules) with 0 errors', async () => {
    const file = path.join(dir, 'openapi.json');
    fs.writeFileSync(file, JSON.stringify(doc));
    // Exit code 1 means problems: the JSON report says which.
    const run = await promisify(execFile)(
      process.execPath,
      [REDOCLY, 'lint', file, '--extends=recommended', '--format=json'],
      {
        env: {
          PATH: process.env.PATH ?? '',
          HOME: dir,
          REDOCLY_TELEMETRY: 'off',
          REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true',
        },
        maxBuffer: 32 * 1024 * 1024,
      },
    ).catch((error: { stdout: string }) => ({ stdout: error.stdout }));
    const report = JSON.parse(run.stdout) as {
      totals: { errors: number };
      problems: { ruleId: string; severity: string; message: string }[];
    };
    expect(report.problems.filter((p) => p.severity === 'error')).toEqual([]);
    expect(report.totals.errors).toBe(0);
  });

  it('is OpenAPI 3.1 with no empty schema and no internal admin route', () => {
    expect(doc.openapi).toBe('3.1.0');
    const schemas = doc.components.schemas as Record<string, Json>;
    expect(Object.keys(schemas)).toEqual(
      expect.arrayContaining([
        'ClassifyConfig',
        'AsyncConfig',
        'HostedWebhookConfig',
        'DirectWebhookConfig',
        'UploadResponse',
        'ClassificationCategory',
        'PageRange',
        'HTTPValidationError',
        'ValidationError',
        'ApiError',
        'UsageExport',
      ]),
    );
    const empty = Object.entries(schemas)
      .filter(([, s]) => !s.anyOf && !s.oneOf && !s.allOf && !s.enum)
      .filter(([, s]) => Object.keys(s.properties ?? {}).length === 0)
      .map(([name]) => name);
    expect(empty).toEqual([]);
    const emptyProperties = Object.entries(schemas).flatMap(([name, s]) =>
      Object.entries((s.properties ?? {}) as Record<string, Json>)
        .filter(([, p]) => Object.keys(p).length === 0)
        .map(([prop]) => `${name}.${prop}`),
    );
    expect(emptyProperties).toEqual([]);
    expect(JSON.stringify(doc)).not.toContain('"nullable"');
    expect(Object.keys(doc.paths).filter((p) => p.startsWith('/admin'))).toEqual([]);
  });

  it('describes the request models with their rules, defaults and required fields', () => {
    const classify = doc.components.schemas.ClassifyConfig;
    expect(classify.required).toEqual(['input']);
    expect(classify.additionalProperties).toBe(false);
    expect(classify.properties.model).toMatchObject({
      enum: ['default', 'accurate'],
      default: 'default',
    });
    expect(classify.properties.priority).toEqual({ type: 'boolean', default: true });
    expect(doc.components.schemas.HostedWebhookConfig.properties.mode.enum).toEqual([
      'hosted',
      'svix',
    ]);
    expect(doc.components.schemas.DirectWebhookConfig.required).toEqual(['url']);
    const body = doc.paths['/classify_async'].post.requestBody.content['application/json'];
    expect(body.schema).toEqual({ $ref: '#/components/schemas/ClassifyConfig' });
  });

  it('names every operation with its own stable operationId, not a Nest default', () => {
    const ids = operations(doc).map(({ op }) => op.operationId as string);
    expect(new Set(ids).size).toBe(ids.length);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]+$/.test(id))).toEqual([]);
    expect(doc.paths['/classify'].post.operationId).toBe('classify');
    expect(doc.paths['/job/{job_id}'].get.operationId).toBe('getJob');
    expect(doc.paths['/cancel/{job_id}'].post.operationId).toBe('cancelJob');
    expect(doc.paths['/api/v1/usage/export'].get.operationId).toBe('exportUsage');
  });

  it('gives every operation a summary, a 2xx response with content (or 204), errors with bodies', () => {
    for (const { method, path: p, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      expect([where, typeof op.summary]).toEqual([where, 'string']);
      const codes = Object.keys(op.responses);
      const success = codes.filter((c) => c.startsWith('2'));
      expect([where, success.length > 0]).toEqual([where, true]);
      for (const code of codes) {
        if (code === '204') continue;
        const content = op.responses[code].content ?? {};
        expect([where, code, Object.keys(content).length > 0]).toEqual([where, code, true]);
      }
      for (const param of p.match(/\{(\w+)\}/g) ?? []) {
        const name = param.slice(1, -1);
        const declared = (op.parameters ?? []).some(
          (x: Json) => x.in === 'path' && x.name === name,
        );
        expect([where, name, declared]).toEqual([where, name, true]);
      }
    }
  });

  it('answers 422 on processing requests with HTTPValidationError, other errors with the envelope', () => {
    const validation = { $ref: '#/components/schemas/HTTPValidationError' };
    const processing = ['/classify', '/classify_async', '/parse', '/extract_async', '/split'];
    for (const p of processing) {
      const responses = doc.paths[p].post.responses;
      // A sync request also answers 422 for a document the engines refuse, in the envelope.
      expect(responses['422'].content['application/json'].schema).toEqual(
        p.endsWith('_async')
          ? validation
          : { anyOf: [validation, { $ref: '#/components/schemas/ApiError' }] },
      );
      expect(responses['503'].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ApiError',
      });
    }
    const exportOp = doc.paths['/api/v1/usage/export'].get;
    for (const code of ['400', '401', '403']) {
      expect(exportOp.responses[code].content['application/json'].schema).toEqual({
        $ref: '#/components/schemas/ApiError',
      });
    }
    expect(exportOp.parameters.map((p: Json) => p.name).sort()).toEqual(
      USAGE_EXPORT_PARAMETERS.map((p) => p.name).sort(),
    );
    expect(exportOp.parameters.find((p: Json) => p.name === 'product').schema.type).toBe('array');
  });

  it('gives every request body an example, and links from what creates to what reads and deletes', () => {
    for (const { method, path: p, op } of operations(doc)) {
      for (const [type, media] of Object.entries((op.requestBody?.content ?? {}) as Json)) {
        const where = `${method.toUpperCase()} ${p} ${type}`;
        expect([where, (media as Json).example !== undefined]).toEqual([where, true]);
      }
    }
    const linksOf = (p: string, method: string, status: string) =>
      doc.paths[p][method].responses[status].links as Record<string, Json>;
    expect(linksOf('/classify_async', 'post', '200').GetJob).toEqual({
      operationId: 'getJob',
      description: expect.any(String),
      parameters: { job_id: '$response.body#/job_id' },
    });
    expect(
      linksOf('/api/v1/orgs/{orgId}/processing-keys', 'post', '201').RevokeProcessingKey,
    ).toMatchObject({
      operationId: 'revokeProcessingKey',
      parameters: { orgId: '$request.path.orgId', keyId: '$response.body#/keyId' },
    });
    expect(linksOf('/upload', 'post', '200').ParseUploadedFile.requestBody).toEqual({
      input: '$response.body#/file_id',
    });
    const ids = new Set(operations(doc).map(({ op }) => op.operationId as string));
    for (const { op } of operations(doc)) {
      for (const response of Object.values(op.responses as Record<string, Json>)) {
        for (const link of Object.values((response.links ?? {}) as Record<string, Json>)) {
          expect(ids.has(link.operationId)).toBe(true);
        }
      }
    }
  });

  it('declares the statuses the HTTP layer answers, each with the error body of its surface', () => {
    for (const { method, path: p, op } of operations(doc)) {
      const where = `${method.toUpperCase()} ${p}`;
      const expected = ['400', '408', '431', '503'];
      if (p.includes('{')) expected.push('404', '414');
      if (op.requestBody) expected.push('413', '415', '422');
      expect([where, Object.keys(op.responses)]).toEqual([where, expect.arrayContaining(expected)]);
      for (const [code, response] of Object.entries(op.responses as Record<string, Json>)) {
        if (Number(code) < 400) continue;
        const dashboard = p.startsWith('/api/v1/');
        const name = code === '422' && !dashboard ? 'HTTPValidationError' : 'ApiError';
        const ref = { $ref: `#/components/schemas/${name}` };
        const documentWork = { anyOf: [ref, { $ref: '#/components/schemas/ApiError' }] };
        const schema = (response.content['application/json'] ?? {}).schema;
        expect([where, code, Object.keys(response.content)]).toEqual([
          where,
          code,
          ['application/json'],
        ]);
        expect([where, code, schema]).toEqual([
          where,
          code,
          code === '422' && !dashboard && schema.anyOf ? documentWork : ref,
        ]);
      }
    }
  });

  it('declares bearer security exactly on the operations that refuse a request without a key', async () => {
    const schemes = doc.components.securitySchemes;
    expect(Object.keys(schemes).sort()).toEqual(['AccountBearer', 'SkippableHTTPBearer']);
    for (const scheme of Object.values(schemes) as Json[]) {
      expect(scheme).toMatchObject({ type: 'http', scheme: 'bearer' });
      expect(scheme.bearerFormat).toBeUndefined();
    }
    expect(doc.paths['/classify_async'].post.security).toEqual([{ SkippableHTTPBearer: [] }]);
    expect(doc.paths['/api/v1/usage/export'].get.security).toEqual([{ AccountBearer: [] }]);
    const mismatched: string[] = [];
    for (const { method, path: p, op } of operations(doc)) {
      const url = t.baseUrl + p.replace(/\{\w+\}/g, 'x');
      const res = await fetch(url, {
        method: method.toUpperCase(),
        ...(method === 'post'
          ? { headers: { 'content-type': 'application/json' }, body: '{}' }
          : {}),
      });
      await res.arrayBuffer();
      const declared = Array.isArray(op.security) && op.security.length > 0;
      if (declared !== (res.status === 401)) mismatched.push(`${method} ${p}: ${res.status}`);
    }
    expect(mismatched).toEqual([]);
  });

  it('serves the reference page at /docs with every asset from this server', async () => {
    const res = await fetch(`${t.baseUrl}/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await res.text();
    expect(html).not.toMatch(/https?:\/\//);
    const refs = [...html.matchAll(/(?:src|href)="([^"]+)"/g)].map((m) => m[1]);
    expect(refs).toEqual(
      expect.arrayContaining(['docs/swagger-ui.css', 'docs/swagger-ui-bundle.js']),
    );
    for (const ref of refs) {
      // Relative, so the page works under a path prefix added by a proxy.
      expect(ref.startsWith('/')).toBe(false);
      const asset = await fetch(new URL(ref, `${t.baseUrl}/docs`));
      expect([ref, asset.status]).toEqual([ref, 200]);
      const body = await asset.text();
      expect(body.length).toBeGreaterThan(0);
      if (ref.endsWith('init.js')) {
        expect(body).toContain("url: 'openapi.json'");
        expect(body).toContain('validatorUrl: null');
      }
    }
    expect((await fetch(`${t.baseUrl}/docs/package.json`)).status).toBe(404);
    expect((await fetch(`${t.baseUrl}/docs/..%2Fpackage.json`)).status).toBe(404);
  });

  it('redirects /docs/ to the page with a relative location, which keeps a proxy prefix', async () => {
    const res = await fetch(`${t.baseUrl}/docs/`, { redirect: 'manual' });
    expect(res.status).toBe(301);
    const location = res.headers.get('location')!;
    expect(location.startsWith('/')).toBe(false);
    expect(new URL(location, 'https://proxy.test/prefix/docs/').pathname).toBe('/prefix/docs');
    const followed = await fetch(`${t.baseUrl}/docs/`);
    expect(followed.url).toBe(`${t.baseUrl}/docs`);
    expect(await followed.text()).toContain('docs/swagger-ui-bundle.js');
  });
});
