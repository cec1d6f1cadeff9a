import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from '@jest/globals';
import Fastify, { type FastifyInstance } from 'fastify';
import pino from 'pino';
import { requestIdOf } from '../request-id.js';
import { logLeanRouteAccess } from './lean-access-log.js';
import { loggerParams, REDACTED } from './log-redaction.js';

let app: FastifyInstance | undefined;
const headers = { authorization: 'Bearer dpa_leak1', 'x-request-id': 'req-7' };

afterEach(async () => {
  await app?.close();
  app = undefined;
});

/** A Fastify app with a lean route, another route and the access hook; the lines it logs. */
async function serve(level: string) {
  const lines: Record<string, unknown>[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const line of chunk.toString('utf8').trim().split('\n')) lines.push(JSON.parse(line));
      done();
    },
  });
  const logger = pino(loggerParams(level, true).pinoHttp as pino.LoggerOptions, sink);
  app = Fastify({ genReqId: requestIdOf });
  app.get('/api/v1/usage/export', async (request, reply) =>
    request.query && 'fail' in (request.query as object) ? reply.code(503).send('no') : 'ok',
  );
  app.get('/other', async () => 'ok');
  logLeanRouteAccess(app, () => logger);
  const base = await app.listen({ port: 0, host: '127.0.0.1' });
  const get = async (path: string) => {
    await (await fetch(`${base}${path}`, { headers })).text();
    // The access line is written once the response finished, just after the client has it;
    // where none is expected, this gives it the same bounded chance to (wrongly) appear.
    await waitFor(() => lines.length > 0);
  };
  return { lines, get };
}

async function waitFor(condition: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !condition(); i++) await new Promise((r) => setImmediate(r));
}

describe(logLeanRouteAccess.name, () => {
  it('writes the access line of a lean route with the request, redacted, and its timing', async () => {
    const { lines, get } = await serve('info');
    await get('/api/v1/usage/export?orgId=o&signature=leak2');
    expect(lines).toEqual([
      expect.objectContaining({
        level: 30,
        msg: 'request completed',
        reqId: 'req-7',
        req: expect.objectContaining({
          method: 'GET',
          url: `/api/v1/usage/export?orgId=o&signature=${REDACTED}`,
        }),
        res: { statusCode: 200 },
        responseTime: expect.any(Number),
      }),
    ]);
    expect(JSON.stringify(lines)).not.toMatch(/leak\d/);
  });

  it('logs a 5xx at error level and leaves other routes to the request middleware', async () => {
    const { lines, get } = await serve('info');
    await get('/other');
    await get('/api/v1/usage/export?fail=1');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, msg: 'request errored', res: { statusCode: 503 } }),
    ]);
  });

  it('writes nothing below its level', async () => {
    const { lines, get } = await serve('warn');
    await get('/api/v1/usage/export');
    expect(lines).toEqual([]);
  });
});
