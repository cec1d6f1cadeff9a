import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import { pinoHttp, type Options } from 'pino-http';
import {
  loggerParams,
  REDACTED,
  redactUrl,
  redactUrlsIn,
  serializeRequest,
} from './log-redaction.js';

describe(redactUrl.name, () => {
  it('takes the signature out of presigned upload and result URLs and keeps the rest', () => {
    expect(redactUrl('/upload/f_1.pdf?expires=1795417215&signature=abc123')).toBe(
      `/upload/f_1.pdf?expires=1795417215&signature=${REDACTED}`,
    );
    expect(redactUrl('https://h/x?token=t&a=1#frag')).toBe(
      `https://h/x?token=${REDACTED}&a=1#frag`,
    );
    expect(redactUrl('/job/123')).toBe('/job/123');
  });

  it('finds URLs inside text', () => {
    expect(redactUrlsIn('PUT to http://h:3000/upload/a?expires=1&signature=zz failed')).toBe(
      `PUT to http://h:3000/upload/a?expires=1&signature=${REDACTED} failed`,
    );
  });
});

describe(serializeRequest.name, () => {
  it('logs a few harmless headers, never credentials or cookies', () => {
    const line = serializeRequest({
      id: 'r1',
      method: 'GET',
      url: '/x?signature=s',
      headers: { authorization: 'Bearer dpk_x', cookie: 'sid=1', 'user-agent': 'curl' },
    });
    expect(line).toEqual({
      id: 'r1',
      method: 'GET',
      url: `/x?signature=${REDACTED}`,
      headers: { 'user-agent': 'curl' },
      remoteAddress: undefined,
    });
  });
});

describe('the logger docproc processes use', () => {
  it('writes no secret, authorization header or signature, whatever a log call passes', () => {
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString('utf8');
        done();
      },
    });
    const options = loggerParams('info', false).pinoHttp as pino.LoggerOptions;
    const logger = pino(options, sink);
    logger.info(
      { headers: { authorization: 'Bearer dpa_leak1' }, key: { secret: 'dpk_leak2' } },
      'created a key',
    );
    logger.info('presigned http://h/upload/a?expires=1&signature=leak3sig');
    logger.error({ err: new Error('GET https://h/r?token=leak4tok failed') }, 'boom');
    logger.info({ req: { headers: { authorization: 'Bearer dpa_leak5' } } }, 'request');
    logger.error({ url: 'https://hooks.example/h?token=leak6tok', attempts: 8 }, 'webhook failed');
    expect(output).not.toMatch(/leak\d/);
    expect(output.match(/\[REDACTED\]/g)?.length).toBeGreaterThanOrEqual(6);
  });
});

describe('the request logger of the HTTP app', () => {
  /** One request through pino-http with the app's settings; what the handler saw, and the log. */
  async function serveOnce(level: string) {
    let output = '';
    const sink = new Writable({
      write(chunk: Buffer, _encoding, done) {
        output += chunk.toString('utf8');
        done();
      },
    });
    const options = loggerParams(level, true).pinoHttp as Options;
    const logRequest = pinoHttp(options, sink);
    let handlerBindings: Record<string, unknown> = {};
    const server = http.createServer((req, res) => {
      logRequest(req, res);
      handlerBindings = req.log.bindings();
      req.log.warn('inside the handler');
      res.end('ok');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const res = await fetch(`http://127.0.0.1:${port}/upload/a?signature=leak1sig`, {
      headers: { authorization: 'Bearer dpa_leak2', 'x-request-id': 'req-42' },
    });
    await res.text();
    await new Promise<void>((resolve) => server.close(() => resolve()));
    const lines = output
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, unknown>);
    return { lines, handlerBindings, raw: output };
  }

  it('binds only the request id while handling, and puts the request on the access line', async () => {
    const { lines, handlerBindings, raw } = await serveOnce('info');
    expect(handlerBindings).toEqual({ reqId: 'req-42' });
    expect(lines[0]).toMatchObject({ msg: 'inside the handler', reqId: 'req-42' });
    expect(lines[0]).not.toHaveProperty('req');
    expect(lines[1]).toMatchObject({
      msg: 'request completed',
      reqId: 'req-42',
      req: { id: 'req-42', method: 'GET', url: `/upload/a?signature=${REDACTED}` },
      res: { statusCode: 200 },
      responseTime: expect.any(Number),
    });
    expect(raw).not.toMatch(/leak\d/);
  });

  it('writes no access line below its level, and handler lines still carry the request id', async () => {
    const { lines } = await serveOnce('warn');
    expect(lines).toEqual([
      expect.objectContaining({ msg: 'inside the handler', reqId: 'req-42' }),
    ]);
  });
});
