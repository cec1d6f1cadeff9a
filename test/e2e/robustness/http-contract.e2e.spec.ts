import http from 'node:http';
import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { apiCall } from '../../support/http.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

// The HTTP layer's answers to requests no route handles as asked: every one is an error in
// the envelope of its surface, with the status the API description declares.

const RFC3339_DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?(Z|[+-]\d{2}:\d{2})$/;

/** One raw HTTP/1.1 exchange, for requests fetch() will not send. */
function rawExchange(port: number, request: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = net.connect(port, '127.0.0.1', () => socket.end(request));
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString('latin1')));
    socket.on('close', () => resolve(answer));
    socket.on('error', reject);
  });
}

/** A request with any method (fetch() refuses TRACE), its status, headers and JSON body. */
function send(
  url: string,
  method: string,
  headers: Record<string, string> = {},
): Promise<{
  status: number;
  headers: http.IncomingHttpHeaders;
  body: { error: { code: string } };
}> {
  return new Promise((resolve, reject) => {
    const req = http.request(url, { method, headers }, (res) => {
      let text = '';
      res.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
      res.on('end', () =>
        resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }),
      );
    });
    req.on('error', reject);
    req.end();
  });
}

describe('the HTTP contract outside the routes', () => {
  let t: TestApp;
  let acme: SeededAccount;

  beforeAll(async () => {
    t = await startTestApp();
    acme = await seedAccount(t.app);
  });
  afterAll(async () => {
    await t.close();
  });

  it.each([
    ['TRACE', '/classify', 'POST'],
    ['QUERY', '/job/abc', 'DELETE, GET, HEAD'],
    ['PUT', '/api/v1/orgs', 'GET, HEAD'],
    ['OPTIONS', '/health', 'GET, HEAD'],
    ['PATCH', '/api/v1/orgs/org_x/metadata-keys/team', 'DELETE'],
  ])('answers %s %s with 405 and Allow: %s', async (method, route, allow) => {
    const res = await send(`${t.baseUrl}${route}`, method, {
      authorization: `Bearer ${acme.processingKey}`,
    });
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe(allow);
    expect(res.body.error.code).toBe('METHOD_NOT_ALLOWED');
  });

  it('answers a path no route has with 404 in the envelope, whatever the method', async () => {
    for (const method of ['GET', 'TRACE', 'POST']) {
      const res = await send(`${t.baseUrl}/no-such-thing`, method);
      expect(res.status).toBe(404);
      expect(res.body.error.code).toBe('NOT_FOUND');
    }
  });

  it('answers a path parameter past the router limit with 414 in the envelope', async () => {
    const res = await fetch(`${t.baseUrl}/job/${'j'.repeat(4000)}`, {
      headers: { authorization: `Bearer ${acme.processingKey}` },
    });
    expect(res.status).toBe(414);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('URI_TOO_LONG');
  });

  it('answers headers past the size limit with 431 in the envelope', async () => {
    const port = Number(new URL(t.baseUrl).port);
    const answer = await rawExchange(
      port,
      `GET /health HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`,
    );
    expect(answer).toMatch(/^HTTP\/1\.1 431 /);
    expect(answer).toContain('"code":"REQUEST_HEADER_FIELDS_TOO_LARGE"');
  });

  it.each([
    [
      'truncated',
      '--b\r\nContent-Disposition: form-data; name="file"; filename="a.pdf"\r\n\r\n%PDF',
    ],
    ['without parts', '--b\r\n[]--b--\r\n'],
    ['without its boundary', 'no boundary here'],
  ])('answers a %s multipart upload with 400 MALFORMED_MULTIPART', async (_label, body) => {
    const res = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers: {
        authorization: `Bearer ${acme.processingKey}`,
        'content-type': 'multipart/form-data; boundary=b',
      },
      body,
    });
    expect(res.status).toBe(400);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe(
      'MALFORMED_MULTIPART',
    );
  });

  it.each([
    ['an empty object', {}],
    ['a number for the key', { key: 123 }],
    ['null', null],
  ])('refuses %s as a metadata key with 422 INVALID_BODY', async (_label, body) => {
    const res = await apiCall(
      t.baseUrl,
      'POST',
      `/api/v1/orgs/${acme.orgId}/metadata-keys`,
      acme.accountKey,
      body,
    );
    expect(res.status).toBe(422);
    expect(((await res.json()) as { error: { code: string } }).error.code).toBe('INVALID_BODY');
  });

  it('gives metadata-key timestamps as RFC 3339 date-times, and deletes a 256-character key', async () => {
    const key = 'k'.repeat(256);
    const created = await apiCall(
      t.baseUrl,
      'POST',
      `/api/v1/orgs/${acme.orgId}/metadata-keys`,
      acme.accountKey,
      { key },
    );
    expect(created.status).toBe(201);
    const status = (await created.json()) as { enabledAt: string };
    expect(status.enabledAt).toMatch(RFC3339_DATE_TIME);
    expect(Math.abs(Date.parse(status.enabledAt) - Date.now())).toBeLessThan(60_000);
    const removed = await apiCall(
      t.baseUrl,
      'DELETE',
      `/api/v1/orgs/${acme.orgId}/metadata-keys/${key}`,
      acme.accountKey,
    );
    expect(removed.status).toBe(204);
  });

  it('gives /versions dates as RFC 3339 full-dates and its clock as a date-time', async () => {
    const body = (await (await fetch(`${t.baseUrl}/versions`)).json()) as {
      now: string;
      families: { versions: Record<string, string | null>[] }[];
    };
    expect(body.now).toMatch(RFC3339_DATE_TIME);
    const days = body.families.flatMap((f) =>
      f.versions.flatMap((v) => [v.alpha_from, v.default_from, v.deprecated_from, v.removed_from]),
    );
    expect(days.length).toBeGreaterThan(0);
    for (const day of days.filter((d) => d !== null)) {
      expect(day).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    }
  });

  it('refuses an unknown query parameter where an operation declares its own, per surface', async () => {
    const jobs = await fetch(`${t.baseUrl}/jobs?limit=5&colour=red`, {
      headers: { authorization: `Bearer ${acme.processingKey}` },
    });
    expect(jobs.status).toBe(422);
    expect(await jobs.json()).toEqual({
      detail: [
        {
          loc: ['query', 'colour'],
          msg: 'Extra inputs are not permitted',
          type: 'extra_forbidden',
          input: 'red',
        },
      ],
    });
    const usage = await apiCall(
      t.baseUrl,
      'GET',
      '/api/v1/usage/export?groupBy=product&colour=red',
      acme.accountKey,
    );
    expect(usage.status).toBe(422);
    expect(((await usage.json()) as { error: { code: string } }).error.code).toBe(
      'UNKNOWN_QUERY_PARAMETER',
    );
    const health = await fetch(`${t.baseUrl}/health?colour=red`);
    expect(health.status).toBe(200);
  });

  it.each([
    ['POST', '/upload?extension=pdf&extension=txt', 'extension'],
    ['GET', '/webhooks/deliveries?job_id=a&job_id=b', 'job_id'],
    ['GET', '/jobs?limit=1&limit=2', 'limit'],
  ])(
    'answers %s %s, a single-valued parameter repeated, with 422 naming it',
    async (method, route, name) => {
      const res = await fetch(`${t.baseUrl}${route}`, {
        method,
        headers: { authorization: `Bearer ${acme.processingKey}` },
      });
      expect(res.status).toBe(422);
      const { detail } = (await res.json()) as { detail: { loc: string[] }[] };
      expect(detail.map((item) => item.loc)).toEqual([['query', name]]);
    },
  );

  it('answers a multipart upload without its file part with 422, a bodiless one with a presigned URL', async () => {
    const headers = { authorization: `Bearer ${acme.processingKey}` };
    const empty = await fetch(`${t.baseUrl}/upload`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'multipart/form-data; boundary=b' },
      body: '--b\r\nContent-Disposition: form-data; name="note"\r\n\r\nhello\r\n--b--\r\n',
    });
    expect(empty.status).toBe(422);
    expect(await empty.json()).toEqual({
      detail: [{ loc: ['body', 'file'], msg: 'Field required', type: 'missing' }],
    });
    const presigned = await fetch(`${t.baseUrl}/upload?extension=pdf`, { method: 'POST', headers });
    expect(presigned.status).toBe(200);
    expect(((await presigned.json()) as { presigned_url: string }).presigned_url).toMatch(/^http/);
  });
});
