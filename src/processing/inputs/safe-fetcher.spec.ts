import http from 'node:http';
import type dns from 'node:dns';
import type { AddressInfo } from 'node:net';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { loadConfig } from '../../config/app-config.js';
import { BlockedAddressError, SafeFetcher } from './safe-fetcher.js';

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

  it('refuses a host outside the egress allow-list before resolving its name', async () => {
    const looked: string[] = [];
    class RecordingFetcher extends ScriptedDnsFetcher {
      protected override resolveAll(
        hostname: string,
        family: number,
        callback: (error: NodeJS.ErrnoException | null, addresses: dns.LookupAddress[]) => void,
      ): void {
        looked.push(hostname);
        super.resolveAll(hostname, family, callback);
      }
    }
    const sut = new RecordingFetcher(
      { 'docs.example': ['93.184.216.34'], 'files.test': ['127.0.0.1'] },
      { FETCH_ALLOW_HOSTS: 'files.test', FETCH_ALLOWED_HOSTS_ONLY: 'true' },
    );
    await expect(sut.fetchDocument(`http://docs.example:${port}/`, 100)).rejects.toMatchObject({
      code: 'INPUT_URL_BLOCKED',
    });
    await expect(sut.destinationRefusal('https://docs.example/hook', 1000)).resolves.toMatch(
      /not in FETCH_ALLOW_HOSTS/,
    );
    expect(looked).toEqual([]);
    const body = await sut.fetchDocument(`http://files.test:${port}/`, 100);
    expect(body.bytes.toString()).toBe('hello');
    await sut.beforeApplicationShutdown();
  });

  it('enforces the size cap while streaming', async () => {
    const sut = new ScriptedDnsFetcher({}, { FETCH_ALLOW_PRIVATE: 'true' });
    await expect(sut.fetchDocument(`http://127.0.0.1:${port}/`, 3)).rejects.toMatchObject({
      code: 'INPUT_TOO_LARGE',
      message: expect.stringContaining('larger than 3 bytes, what MAX_UPLOAD_BYTES leaves for it'),
    });
    await sut.beforeApplicationShutdown();
  });

  it.each([
    'http://[::127.0.0.1]/',
    'http://[::ffff:0:127.0.0.1]/',
    'http://[2002:a9fe:a9fe::1]/',
    'http://[64:ff9b::127.0.0.1]/',
    'http://[64:ff9b:1::8.8.8.8]/',
    'http://[2001:0:4136:e378:8000:63bf:3fff:fdd2]/',
    'http://[fd00::1]/',
    'http://[fe80::1]/',
    'http://[ff02::1]/',
    'http://[::]/',
    'http://0/',
    'http://2130706433/',
    'http://0177.0.0.1/',
    'http://0x7f.0x0.0x0.0x1/',
    'http://127.1/',
    'http://localhost/',
  ])('refuses %s before connecting', (url) => {
    const sut = new ScriptedDnsFetcher({});
    expect(() => sut.assertAllowedUrl(new URL(url))).toThrow(BlockedAddressError);
  });

  it('says which setting lets a refused host through, unless the allow-list refused it', () => {
    const guarded = new ScriptedDnsFetcher({});
    expect(() => guarded.assertAllowedUrl(new URL('http://10.1.2.3/a.pdf'))).toThrow(
      'Refusing to connect to 10.1.2.3: private IPv4 address; to allow it, list the host in ' +
        'FETCH_ALLOW_HOSTS (or set FETCH_ALLOW_PRIVATE)',
    );
    const listed = new ScriptedDnsFetcher(
      {},
      { FETCH_ALLOW_HOSTS: 'files.test', FETCH_ALLOWED_HOSTS_ONLY: 'true' },
    );
    expect(() => listed.assertAllowedUrl(new URL('http://docs.example/a.pdf'))).toThrow(
      /^Refusing to connect to docs\.example: not in FETCH_ALLOW_HOSTS$/,
    );
  });

  it('says how to write a jobid:// or docproc:// reference that reached it in another form', () => {
    const sut = new ScriptedDnsFetcher({});
    expect(() => sut.assertAllowedUrl(new URL('JOBID://1a2b'))).toThrow(
      /write jobid:\/\/<job_id> and docproc:\/\/<file_id> in lower case/,
    );
    expect(() => sut.assertAllowedUrl(new URL('ftp://example.com/a'))).toThrow(
      'Unsupported URL scheme ftp:',
    );
  });

  it('names the reason a webhook destination is refused, for literal and resolved hosts', async () => {
    const sut = new ScriptedDnsFetcher({ 'hooks.example': ['93.184.216.34', '10.0.0.7'] });
    expect(await sut.destinationRefusal('http://[::127.0.0.1]/h', 1000)).toContain(
      'IPv4-compatible',
    );
    expect(await sut.destinationRefusal('http://hooks.example/h', 1000)).toContain(
      'resolves to 10.0.0.7 (private IPv4 address)',
    );
    expect(await sut.destinationRefusal('http://nowhere.example/h', 1000)).toContain('no address');
    expect(await sut.destinationRefusal('https://[2606:4700:4700::1111]/h', 1000)).toBeNull();
  });

  it('refuses a webhook host whose name does not resolve within the bound', async () => {
    class SlowDns extends SafeFetcher {
      protected override resolveAll(): void {
        // never answers
      }
    }
    const sut = new SlowDns(loadConfig({}));
    const started = Date.now();
    expect(await sut.destinationRefusal('http://slow.example/h', 200)).toContain(
      'did not resolve within 200 ms',
    );
    // A resolver that never answers would hang the check for good: the bound holds it to the
    // 200 ms, with room for a timer that fires late on a loaded machine.
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it("names a webhook post's own time limit when the receiver does not answer in it", async () => {
    const silent = http.createServer(() => {
      // never answers
    });
    await new Promise<void>((r) => silent.listen(0, '127.0.0.1', r));
    const silentPort = (silent.address() as AddressInfo).port;
    // FETCH_TIMEOUT_MS stays at its 30 s: the post's own 300 ms is what ran out.
    const sut = new ScriptedDnsFetcher({}, { FETCH_ALLOW_HOSTS: '127.0.0.1' });
    try {
      await expect(
        sut.post(`http://127.0.0.1:${silentPort}/hook`, '{}', {}, 300),
      ).rejects.toMatchObject({
        code: 'INPUT_FETCH_TIMEOUT',
        message: `Fetching 127.0.0.1:${silentPort} took longer than 300 ms`,
      });
    } finally {
      await sut.beforeApplicationShutdown();
      silent.closeAllConnections();
      await new Promise((r) => silent.close(r));
    }
  });

  it('lets allow-listed hosts through at submission as at delivery', async () => {
    const sut = new ScriptedDnsFetcher({}, { FETCH_ALLOW_HOSTS: '127.0.0.1' });
    expect(await sut.destinationRefusal('http://127.0.0.1:9/h', 1000)).toBeNull();
  });
});
