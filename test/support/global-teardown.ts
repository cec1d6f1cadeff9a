/** Jest global teardown: stops what global setup started (never a developer's own instance). */
export default async function globalTeardown(): Promise<void> {
  const stop = globalThis.__docprocStopTestServices;
  globalThis.__docprocStopTestServices = undefined;
  if (stop) await stop();
}
