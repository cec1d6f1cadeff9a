import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { InjectionToken } from '@nestjs/common';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { configureApp, createApp, createHttpAdapter } from '../../src/app.factory.js';
import { AppModule, type AppOverrides } from '../../src/app.module.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/** A provider of the real app replaced by a value, wherever in the module tree it lives. */
export interface ProviderOverride {
  provide: InjectionToken;
  useValue: unknown;
}

export interface TestAppOverrides extends AppOverrides {
  providers?: ProviderOverride[];
}

/** The real app with providers replaced (Nest's testing module), configured as createApp does. */
async function createAppWithProviders(
  config: AppConfig,
  overrides: AppOverrides,
  providers: ProviderOverride[],
): Promise<NestFastifyApplication> {
  let builder = Test.createTestingModule({ imports: [AppModule.forRoot(config, overrides)] });
  for (const { provide, useValue } of providers) {
    builder = builder.overrideProvider(provide).useValue(useValue);
  }
  const moduleRef = await builder.compile();
  return configureApp(
    moduleRef.createNestApplication<NestFastifyApplication>(createHttpAdapter(config), {
      bufferLogs: true,
    }),
  );
}

/**
 * Starts the real application on a random loopback port with a fresh DATA_DIR (a real
 * DuckDB file), so specs talk to it over real HTTP. `overrides.providers` replaces
 * providers (e.g. the usage sink) without changing anything else about the app.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  overrides: TestAppOverrides = {},
): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-test-'));
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    ...env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const { providers = [], ...appOverrides } = overrides;
  const app =
    providers.length > 0
      ? await createAppWithProviders(config, appOverrides, providers)
      : await createApp(config, appOverrides);
  await app.listen({ port: 0, host: '127.0.0.1' });
  // Here the spec's HTTP client shares the server's event loop, which document work run
  // inline (no executor processes under jest) blocks for seconds on a loaded machine. A
  // request sent on a connection near its keep-alive timeout (72 s idle: the client still
  // reuses it) is then read only after the server's timer has closed that connection, and
  // fails with ECONNRESET. Without a server-side idle timeout the client alone closes idle
  // connections (after 4 s): no request meets a closing connection. A deployed server, whose
  // clients run elsewhere, keeps its timeout (and ChildApp specs run it).
  app.getHttpServer().keepAliveTimeout = 0;
  const address = app.getHttpServer().address();
  if (address === null || typeof address === 'string') throw new Error('server has no TCP address');
  const baseUrl = `http://127.0.0.1:${address.port}`;
  config.publicBaseUrl = baseUrl;
  return {
    app,
    config,
    baseUrl,
    dataDir,
    async close() {
      await app.close();
      if (!env.DATA_DIR) fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
