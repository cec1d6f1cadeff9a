import { Logger, type ArgumentsHost } from '@nestjs/common';
import { beforeAll, describe, expect, it } from '@jest/globals';
import { AllExceptionsFilter } from '../all-exceptions.filter.js';
import { isOutOfSpace } from './storage-full.js';

/** What the filter sent: status, headers and body of a stand-in Fastify reply. */
function render(thrown: unknown) {
  const sent = { status: 0, headers: {} as Record<string, string>, body: undefined as unknown };
  const reply = {
    status(code: number) {
      sent.status = code;
      return reply;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return reply;
    },
    send(body: unknown) {
      sent.body = body;
      return reply;
    },
  };
  const request = {
    id: 'req-1',
    method: 'POST',
    url: '/upload',
    headers: {},
    routeOptions: {},
    raw: { socket: { destroyed: false } },
  };
  const host = {
    switchToHttp: () => ({ getResponse: () => reply, getRequest: () => request }),
  } as unknown as ArgumentsHost;
  new AllExceptionsFilter().catch(thrown, host);
  return sent;
}

describe('a write that found the disk full', () => {
  // The filter logs each refusal; the spec reads what the client gets.
  beforeAll(() => Logger.overrideLogger(false));
  const enospc = Object.assign(new Error('ENOSPC: no space left on device, write'), {
    code: 'ENOSPC',
  });
  const duckdbFull = new Error(
    'TransactionContext Error: Failed to commit: Could not write file "x.wal": No space left on device',
  );

  it('is recognized from the system error code and from DuckDB messages', () => {
    expect(isOutOfSpace(enospc)).toBe(true);
    expect(isOutOfSpace(Object.assign(new Error('quota'), { code: 'EDQUOT' }))).toBe(true);
    expect(isOutOfSpace(duckdbFull)).toBe(true);
    expect(isOutOfSpace(new Error('ECONNRESET'))).toBe(false);
  });

  it.each([
    ['the file system', enospc],
    ['DuckDB', duckdbFull],
  ])('from %s answers 503 STORAGE_FULL with Retry-After, not a 500', (_source, error) => {
    const sent = render(error);
    expect(sent.status).toBe(503);
    expect(sent.headers['Retry-After']).toBe('60');
    expect(sent.body).toEqual({
      error: {
        code: 'STORAGE_FULL',
        message: 'The server is out of disk space for new work; retry later.',
      },
    });
  });
});

describe('a request whose service is unreachable', () => {
  beforeAll(() => Logger.overrideLogger(false));

  it.each(['ECONNREFUSED', 'ETIMEDOUT', 'EHOSTUNREACH'])(
    '(%s) answers 503 DEPENDENCY_UNAVAILABLE with Retry-After, not a 500',
    (code) => {
      const sent = render(Object.assign(new Error(`connect ${code} 127.0.0.1:8123`), { code }));
      expect(sent.status).toBe(503);
      expect(sent.headers['Retry-After']).toBe('10');
      expect(sent.body).toEqual({
        error: {
          code: 'DEPENDENCY_UNAVAILABLE',
          message: 'A service this request needs is unreachable; retry shortly.',
        },
      });
    },
  );

  it('leaves other errors a 500', () => {
    expect(render(new Error('boom')).status).toBe(500);
  });
});
