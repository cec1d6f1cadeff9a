import { Writable } from 'node:stream';
import { describe, expect, it } from '@jest/globals';
import pino from 'pino';
import {
  loggerParams,
  LOGGED_VALUE_CHARS,
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

describe('a request line under long URLs and headers', () => {
  it('keeps at most LOGGED_VALUE_CHARS of the URL and of each header, saying how much was cut', () => {
    const path = `/nothing/${'z'.repeat(15_000)}`;
    const line = serializeRequest({
      method: 'GET',
      url: `${path}?signature=${'s'.repeat(600)}`,
      headers: { 'user-agent': 'u'.repeat(10_000), accept: '*/*' },
    });
    const url = String(line.url);
    expect(url.startsWith(path.slice(0, LOGGED_VALUE_CHARS))).toBe(true);
    expect(url).toBe(
      `${path.slice(0, LOGGED_VALUE_CHARS)}...(${path.length + `?signature=${REDACTED}`.length - LOGGED_VALUE_CHARS} more characters)`,
    );
    expect(line.headers).toEqual({
      'user-agent': `${'u'.repeat(LOGGED_VALUE_CHARS)}...(${10_000 - LOGGED_VALUE_CHARS} more characters)`,
      accept: '*/*',
    });
  });

  it('never keeps part of a signature a cut would have split', () => {
    const url = `/upload/f.pdf?expires=1&signature=${'A'.repeat(2_000)}`;
    expect(String(serializeRequest({ url }).url)).not.toContain('AAAA');
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
