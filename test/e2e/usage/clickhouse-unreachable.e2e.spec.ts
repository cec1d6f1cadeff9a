import net from 'node:net';
import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { seedAccount } from '../../support/accounts.js';
import { client } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { freshClickHouseDatabase, testClickHouseUrl } from '../../support/usage-stores.js';

jest.setTimeout(120_000);

/**
 * A TCP relay to the real ClickHouse server that can be cut (listener closed, open
 * connections ended) and restored on the same port: ClickHouse as the server sees it
 * when that server stops and comes back.
 */
async function clickHouseRelay(target: URL) {
  const sockets = new Set<net.Socket>();
  let server: net.Server | null = null;
  const listen = (port: number) =>
    new Promise<number>((resolve) => {
      server = net.createServer((inbound) => {
        const outbound = net.connect(Number(target.port), target.hostname);
        for (const socket of [inbound, outbound]) {
          sockets.add(socket);
          socket.on('close', () => sockets.delete(socket));
          socket.on('error', () => socket.destroy());
        }
        inbound.pipe(outbound).pipe(inbound);
      });
      server.listen(port, '127.0.0.1', () => resolve((server!.address() as net.AddressInfo).port));
    });
  const port = await listen(0);
  return {
    url: `http://127.0.0.1:${port}`,
    async cut() {
      const closed = new Promise((resolve) => server!.close(resolve));
      for (const socket of sockets) socket.destroy();
      await closed;
    },
    restore: () => listen(port),
  };
}

/**
 * ClickHouse stopped under a running server: the usage export answers 503
 * DEPENDENCY_UNAVAILABLE with Retry-After (it answered 500 INTERNAL_ERROR), and answers
 * again once ClickHouse is back.
 */
describe('usage export while ClickHouse is unreachable', () => {
  let t: TestApp;
  let relay: Awaited<ReturnType<typeof clickHouseRelay>>;

  beforeAll(async () => {
    relay = await clickHouseRelay(new URL(testClickHouseUrl()));
    t = await startTestApp({
      USAGE_STORE: 'clickhouse',
      CLICKHOUSE_URL: relay.url,
      CLICKHOUSE_DATABASE: freshClickHouseDatabase(),
      USAGE_EXPORT_CACHE_MB: '0',
    });
  });
  afterAll(async () => {
    await t?.close();
    await relay?.cut();
  });

  it('answers 503 with Retry-After while it is down, and the export again once it is back', async () => {
    const account = await seedAccount(t.app, 'org-clickhouse-down');
    const dashboard = client(t.baseUrl, account.accountKey);
    expect((await dashboard.get('/api/v1/usage/export?groupBy=product')).status).toBe(200);

    await relay.cut();
    const down = await dashboard.get('/api/v1/usage/export?groupBy=feature');
    expect([down.status, down.body.error?.code]).toEqual([503, 'DEPENDENCY_UNAVAILABLE']);
    expect(down.headers.get('retry-after')).toBe('10');

    await relay.restore();
    expect((await dashboard.get('/api/v1/usage/export?groupBy=feature')).status).toBe(200);
  });
});
