import { EventEmitter } from 'node:events';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterEach, beforeEach, describe, expect, it, jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { AdminEndpointService } from './admin-endpoint.service.js';
import { adminFilePath, readAdminFile, writeAdminFile } from './admin-file.js';

/** The part of node's http.Server the service reads: whether it listens, and where. */
class FakeServer extends EventEmitter {
  listening = false;
  constructor(private readonly bound: AddressInfo | null) {
    super();
  }
  address(): AddressInfo | null {
    return this.bound;
  }
  listen(): void {
    this.listening = true;
    this.emit('listening');
  }
}

function hostOf(server: FakeServer | null): HttpAdapterHost {
  return {
    httpAdapter: server ? { getHttpServer: () => server } : undefined,
  } as unknown as HttpAdapterHost;
}

const wildcard: AddressInfo = { address: '0.0.0.0', family: 'IPv4', port: 8123 };

describe(AdminEndpointService.name, () => {
  let dataDir: string;

  beforeEach(() => {
    dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-admin-endpoint-'));
  });

  afterEach(() => {
    jest.restoreAllMocks();
    fs.rmSync(dataDir, { recursive: true, force: true });
  });

  const service = (server: FakeServer | null, adminToken?: string) =>
    new AdminEndpointService({ dataDir, adminToken } as AppConfig, hostOf(server));

  it('uses the configured admin token, else a fresh random one per process', () => {
    expect(service(null, 'configured-token').token).toBe('configured-token');
    const a = service(null).token;
    const b = service(null).token;
    expect(a).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a).not.toBe(b);
  });

  it('publishes where the listening server is reached, over loopback for a wildcard bind', () => {
    const server = new FakeServer(wildcard);
    server.listening = true;
    const sut = service(server, 'secret');
    sut.onApplicationBootstrap();
    expect(readAdminFile(dataDir)).toEqual({
      url: 'http://127.0.0.1:8123',
      token: 'secret',
      pid: process.pid,
    });
    expect(fs.statSync(adminFilePath(dataDir)).mode & 0o777).toBe(0o600);
  });

  it('waits for the server to listen before publishing', () => {
    const server = new FakeServer({ address: '::1', family: 'IPv6', port: 9000 });
    service(server, 'secret').onApplicationBootstrap();
    expect(readAdminFile(dataDir)).toBeNull();
    server.listen();
    expect(readAdminFile(dataDir)?.url).toBe('http://[::1]:9000');
  });

  it('publishes a specific address as itself; the IPv6 wildcard over IPv4 loopback', () => {
    const specific = new FakeServer({ address: '10.1.2.3', family: 'IPv4', port: 80 });
    specific.listening = true;
    service(specific).onApplicationBootstrap();
    expect(readAdminFile(dataDir)?.url).toBe('http://10.1.2.3:80');
    const any6 = new FakeServer({ address: '::', family: 'IPv6', port: 81 });
    any6.listening = true;
    service(any6).onApplicationBootstrap();
    expect(readAdminFile(dataDir)?.url).toBe('http://127.0.0.1:81');
  });

  it('publishes nothing without an HTTP server or a bound address', () => {
    service(null).onApplicationBootstrap();
    const unbound = new FakeServer(null);
    unbound.listening = true;
    service(unbound).onApplicationBootstrap();
    expect(fs.existsSync(adminFilePath(dataDir))).toBe(false);
  });

  it('removes its own file at shutdown, but not a newer server’s', () => {
    const server = new FakeServer(wildcard);
    server.listening = true;
    const sut = service(server, 'secret');
    sut.onApplicationBootstrap();
    sut.onModuleDestroy();
    expect(fs.existsSync(adminFilePath(dataDir))).toBe(false);

    sut.onApplicationBootstrap();
    const newer = { url: 'http://127.0.0.1:9', token: 'newer', pid: process.pid + 1 };
    writeAdminFile(dataDir, newer);
    sut.onModuleDestroy();
    expect(readAdminFile(dataDir)).toEqual(newer);
  });

  it('keeps serving when the file cannot be written, logging why', () => {
    const logged = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
    // DATA_DIR is a file: the endpoint file cannot be created under it.
    const notADir = path.join(dataDir, 'plain-file');
    fs.writeFileSync(notADir, '');
    const server = new FakeServer(wildcard);
    server.listening = true;
    const sut = new AdminEndpointService({ dataDir: notADir } as AppConfig, hostOf(server));
    expect(() => sut.onApplicationBootstrap()).not.toThrow();
    expect(logged).toHaveBeenCalledWith(
      expect.objectContaining({ err: expect.objectContaining({ code: 'EEXIST' }) }),
      'could not write the admin endpoint file',
    );
    // Nothing was published, so nothing is removed at shutdown.
    expect(() => sut.onModuleDestroy()).not.toThrow();
  });
});
