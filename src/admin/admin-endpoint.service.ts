import { randomBytes } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
} from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { AppConfig } from '../config/app-config.js';
import { APP_CONFIG } from '../config/config.module.js';
import { AdminEndpointFile, removeAdminFile, writeAdminFile } from './admin-file.js';

/**
 * Owns the admin token and publishes `DATA_DIR/admin.json` once the HTTP server listens,
 * so `docproc-admin` talks to this process instead of opening the locked DuckDB file.
 */
@Injectable()
export class AdminEndpointService implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(AdminEndpointService.name);
  readonly token: string;
  private published: AdminEndpointFile | null = null;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.token = config.adminToken ?? randomBytes(32).toString('base64url');
  }

  onApplicationBootstrap(): void {
    const server = this.adapterHost.httpAdapter?.getHttpServer() as Server | undefined;
    if (!server) return;
    const publish = (): void => this.publish(server.address() as AddressInfo);
    if (server.listening) publish();
    else server.once('listening', publish);
  }

  onModuleDestroy(): void {
    if (!this.published) return;
    removeAdminFile(this.config.dataDir, this.published);
    this.published = null;
  }

  private publish(address: AddressInfo | null): void {
    if (!address || typeof address !== 'object') return;
    const endpoint: AdminEndpointFile = {
      url: `http://${loopbackHost(address)}:${address.port}`,
      token: this.token,
      pid: process.pid,
    };
    try {
      writeAdminFile(this.config.dataDir, endpoint);
      this.published = endpoint;
    } catch (error) {
      // The server still works; only the CLI falls back to refusing while it runs.
      this.logger.error({ err: error }, 'could not write the admin endpoint file');
    }
  }
}

/** A wildcard listener is reached over loopback; a specific address as itself. */
function loopbackHost(address: AddressInfo): string {
  if (address.address === '0.0.0.0' || address.address === '::') return '127.0.0.1';
  return address.family === 'IPv6' ? `[${address.address}]` : address.address;
}
