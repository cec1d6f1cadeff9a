import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { NestFastifyApplication } from '@nestjs/platform-fastify';
import { createApp } from '../../src/app.factory.js';
import type { AppOverrides } from '../../src/app.module.js';
import { AppConfig, loadConfig } from '../../src/config/app-config.js';

export interface TestApp {
  app: NestFastifyApplication;
  config: AppConfig;
  baseUrl: string;
  dataDir: string;
  close(): Promise<void>;
}

/**
 * Starts the real application on a random loopback port with a fresh DATA_DIR (a real
 * DuckDB file), so specs talk to it over real HTTP.
 */
export async function startTestApp(
  env: Record<string, string> = {},
  overrides: AppOverrides = {},
): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-test-'));
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    ...env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  });
  const app = await createApp(config, overrides);
  await app.listen({ port: 0, host: '127.0.0.1' });
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
