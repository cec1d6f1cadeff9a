/** Jest global teardown: stops what global setup started. */
export default async function globalTeardown(): Promise<void> {}
