// A dashboard with demo data to look at by hand:
//   node --import ./test/support/ts-register.mjs test/support/dashboard-demo-server.ts
// prints the page's address and an account key to sign in with; Ctrl-C stops it.
import { seedDashboardDemo } from './dashboard-demo.js';
import { startTestApp } from './test-app.js';

// A cap of four places for metadata keys: the demo org's three keys hold three, so the
// metadata keys view shows the count, one more key can be enabled and the next is refused.
const t = await startTestApp({ PORT: '0', METADATA_KEYS_MAX_PER_ORG: '4' });
const demo = await seedDashboardDemo(t.app);
process.stdout.write(
  `${JSON.stringify({ url: `${t.baseUrl}/dashboard`, accountKey: demo.accountKey, orgId: demo.orgId })}\n`,
);
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.once(signal, () => void t.close().then(() => process.exit(0)));
}
