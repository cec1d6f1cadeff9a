import http from 'node:http';
import type dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { BlockedAddressError, SafeFetcher } from './safe-fetcher.js';
import { isBlockedAddress } from './address-guard.js';

/** A fetcher whose DNS answers are scripted, to exercise the connect-time guard. */
class ScriptedDnsFetcher extends SafeFetcher {
  constructor(
    private readonly answers: Record<string, string[]>,
    env: Record<string, string> = {},
  ) {
    super(loadConfig(env));
  }
  protected override resolveAll(
    hostname: string,
    _family: number,
    callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
  ): void {
    const list = this.answers[hostname] ?? [];
    callback(
      null,
      list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 })),
    );
  }
}

describe(SafeFetcher.name, () => {
  let server: http.Server;
  let port: number;
  beforeAll(async () => {
    server = http.createServer((_req, res) => res.end('hello'));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    port = (server.address() as AddressInfo).port;
  });
  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  it('refuses a host when any of its addresses is private, even if another is public', async () => {
    const sut = new ScriptedDnsFetcher({ 'docs.example': ['93.184.216.34', '127.0.0.1'] });
    await expect(sut.fetchDocument(`http://docs.example:${port}/`, 100)).rejects.toBeInstanceOf(
      BlockedAddressError,
    );
    await sut.beforeApplicationShutdown();
  });

  it('connects to the checked address when the host is allow-listed', async () => {
    const sut = new ScriptedDnsFetcher(
      { 'files.test': ['127.0.0.1'] },
      { FETCH_ALLOW_HOSTS: 'files.test' },
    );
    const body = await sut.fetchDocument(`http://files.test:${port}/`, 100);
    expect(body.bytes.toString()).toBe('hello');
    await sut.beforeApplicationShutdown();
  });

  it('enforces the size cap while streaming', async () => {
    const sut = new ScriptedDnsFetcher({}, { FETCH_ALLOW_PRIVATE: 'true' });
    await expect(sut.fetchDocument(`http://127.0.0.1:${port}/`, 3)).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
    });
    await sut.beforeApplicationShutdown();
  });

  it.each([
    ['127.0.0.1', true],
    ['10.1.2.3', true],
    ['172.20.0.1', true],
    ['192.168.1.1', true],
    ['169.254.169.254', true],
    ['100.64.0.1', true],
    ['::1', true],
    ['fe80::1', true],
    ['fd00:ec2::254', true],
    ['::ffff:10.0.0.1', true],
    ['::ffff:7f00:1', true],
    ['8.8.8.8', false],
    ['2606:4700:4700::1111', false],
  ])('classifies %s as blocked=%s', (address, expected) => {
    expect(isBlockedAddress(address)).toBe(expected);
  });
});
