import 'reflect-metadata';
import { applyHeapGrowth } from './common/heap-growth.js';
import { ConfigError, loadConfig } from './config/app-config.js';
import { createApp } from './app.factory.js';

async function main(): Promise<void> {
  let config;
  try {
    config = loadConfig();
  } catch (error) {
    if (error instanceof ConfigError) {
      process.stderr.write(`docproc: ${error.message}\n`);
      process.exit(78);
    }
    throw error;
  }
  applyHeapGrowth(config.heapGrowingPercent);
  const app = await createApp(config);
  await app.listen({ port: config.port, host: config.host });
}

main().catch((error: unknown) => {
  process.stderr.write(
    `docproc: failed to start: ${error instanceof Error ? error.stack : String(error)}\n`,
  );
  process.exit(1);
});
