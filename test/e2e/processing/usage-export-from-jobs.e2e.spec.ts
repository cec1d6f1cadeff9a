import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { MetadataKeyService } from '../../../src/usage/metadata/metadata-key.service.js';
import { seedAccount, SeededAccount } from '../../support/accounts.js';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, waitForJob } from '../../support/processing-client.js';
import { startTestApp, TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

/**
 * Embedded mode end to end: classify requests -> outbox -> in-process usage sink ->
 * usage store -> export. Sync usage lands under `unknown`; groups + unknown = total.
 */
describe('usage export of processing requests (in-process bus)', () => {
  let t: TestApp;
  let files: FileServer;
  let org: SeededAccount;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({ FETCH_ALLOW_HOSTS: '127.0.0.1', OUTBOX_RELAY_INTERVAL_MS: '50' });
    org = await seedAccount(t.app, 'Usage Co');
    await t.app.get(MetadataKeyService).enable(org.orgId, 'team');
  });
  afterAll(async () => {
    await t.close();
    await files.close();
  });

  async function exportData(
    params: string,
  ): Promise<{ group: string; credits: number; requestCount: number }[]> {
    const res = await fetch(`${t.baseUrl}/api/v1/usage/export?${params}`, {
      headers: { authorization: `Bearer ${org.accountKey}` },
    });
    expect(res.status).toBe(200);
    return (
      (await res.json()) as { data: { group: string; credits: number; requestCount: number }[] }
    ).data;
  }

  it('exports exactly the expected credits and counts per metadata group', async () => {
    const api = client(t.baseUrl, org.processingKey);
    const twoPages = files.put('/two.txt', 'invoice number\fsecond page');
    const onePage = files.put('/one.txt', 'invoice number');
    const jobs: string[] = [];
    const submit = async (body: Record<string, unknown>) =>
      jobs.push((await api.post('/classify_async', body)).body.job_id);
    await submit({ input: twoPages, async: { metadata: { team: 'risk' } } }); // 1.0
    await submit({ input: onePage, model: 'accurate', async: { metadata: { team: 'risk' } } }); // 1.5
    await submit({ input: onePage, async: { metadata: { team: 'ops', batch: 7 } } }); // 0.5
    await submit({ input: onePage, async: { metadata: { other: 'x' } } }); // 0.5 -> unknown
    await submit({ input: `${files.baseUrl}/missing.txt`, async: { metadata: { team: 'risk' } } }); // failed: not billed
    expect((await api.post('/classify', { input: twoPages })).status).toBe(200); // 1.0 -> unknown
    expect((await api.post('/classify', { input: onePage, model: 'accurate' })).status).toBe(200); // 1.5 -> unknown
    for (const id of jobs) await waitForJob(api, id);

    const expected = { risk: [2.5, 2], ops: [0.5, 1], unknown: [3, 3] } as Record<
      string,
      [number, number]
    >;
    await waitFor(
      'the export to show every billed job under its group',
      async () => {
        const byGroup: Record<string, [number, number]> = {};
        for (const row of await exportData('groupBy=metadata&metadataKey=team')) {
          const [credits, count] = byGroup[row.group] ?? [0, 0];
          byGroup[row.group] = [credits + row.credits, count + row.requestCount];
        }
        expect(byGroup).toEqual(expected);
        return true;
      },
      60_000,
      100,
    );

    const byFeature: Record<string, number> = {};
    for (const row of await exportData('groupBy=feature'))
      byFeature[row.group] = (byFeature[row.group] ?? 0) + row.credits;
    expect(byFeature).toEqual({ classify: 3, deep_classify: 3 });
  });
});
