import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { startTestApp, TestApp } from '../support/test-app.js';

describe('foundation over HTTP', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp();
  });
  afterAll(async () => {
    await t.close();
  });

  it('answers /health with 200', async () => {
    const res = await fetch(`${t.baseUrl}/health`);
    expect(res.status).toBe(200);
    expect(await res.json()).toEqual({ status: 'ok' });
  });

  it('echoes a well-formed x-request-id and invents one otherwise', async () => {
    const echoed = await fetch(`${t.baseUrl}/health`, { headers: { 'x-request-id': 'abc-123' } });
    expect(echoed.headers.get('x-request-id')).toBe('abc-123');
    const invented = await fetch(`${t.baseUrl}/health`, { headers: { 'x-request-id': 'bad id!' } });
    expect(invented.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('renders unknown routes in the error envelope', async () => {
    const res = await fetch(`${t.baseUrl}/no-such-route`);
    expect(res.status).toBe(404);
    expect(await res.json()).toEqual({ error: { code: 'NOT_FOUND', message: expect.any(String) } });
  });

  it('stops gracefully on SIGTERM and SIGINT only, so a native crash exits at once', () => {
    // Handling SIGSEGV made a crashed server hang in its graceful close (shutdown-signals.ts).
    expect(process.listenerCount('SIGTERM')).toBeGreaterThan(0);
    expect(process.listenerCount('SIGINT')).toBeGreaterThan(0);
    for (const fault of ['SIGSEGV', 'SIGBUS', 'SIGABRT', 'SIGILL', 'SIGFPE'] as const) {
      expect(process.listenerCount(fault)).toBe(0);
    }
  });

  it('records migrations so a restart on the same file applies nothing twice', async () => {
    await t.app.close();
    t = await startTestApp({ DATA_DIR: t.dataDir });
    const res = await fetch(`${t.baseUrl}/health`);
    expect(res.status).toBe(200);
  });
});
