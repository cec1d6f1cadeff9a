import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FastifyAdapter, NestFastifyApplication } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import { AppModule } from '../../src/app.module.js';
import { loadConfig } from '../../src/config/app-config.js';
import { USAGE_EVENT_SINK, UsageCloudEvent, UsageEventSink } from '../../src/usage/usage-event.js';
import type { TestApp } from './test-app.js';

/** A usage sink that records what it receives and can be switched into an outage. */
export class RecordingSink implements UsageEventSink {
  readonly events: UsageCloudEvent[] = [];
  failing = false;
  calls = 0;
  async publish(events: UsageCloudEvent[]): Promise<void> {
    this.calls++;
    if (this.failing) throw new Error('broker unavailable');
    this.events.push(...events);
  }
}

/**
 * The real app on a random port, with the usage sink (UsageModule's USAGE_EVENT_SINK) replaced by `sink` (so specs observe
 * what the outbox relays). Same data directory rules as startTestApp.
 */
export async function startAppWithSink(
  sink: UsageEventSink,
  env: Record<string, string> = {},
): Promise<TestApp> {
  const dataDir = env.DATA_DIR ?? fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-test-'));
  const config = loadConfig({
    LOG_LEVEL: 'warn',
    ...env,
    DATA_DIR: dataDir,
    PORT: '0',
    HOST: '127.0.0.1',
  });

  const moduleRef = await Test.createTestingModule({
    imports: [AppModule.forRoot(config)],
  })
    .overrideProvider(USAGE_EVENT_SINK)
    .useValue(sink)
    .compile();
  const app = moduleRef.createNestApplication<NestFastifyApplication>(
    new FastifyAdapter({ bodyLimit: 10 * 1024 * 1024 }),
  );
  app.enableShutdownHooks();
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
