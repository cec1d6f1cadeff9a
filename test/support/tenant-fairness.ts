import { expect, it } from '@jest/globals';
import type { FileServer } from './file-server.js';
import { client, keyOf } from './processing-client.js';
import type { TestApp } from './test-app.js';
import { negativeWindow, waitFor } from './wait.js';

/** Far beyond a spec's length, so the reserve never lapses under a loaded machine. */
export const RESERVE_HOLD_MS = 600_000;
/** Bounds the other organization's sync wait: without the reserve it waits this long, then 504. */
export const SYNC_TIMEOUT_MS = 60_000;
/** A held download outlasts that wait, so only its release ends a job of the burst. */
export const FETCH_LIMIT_MS = String(4 * SYNC_TIMEOUT_MS);
/**
 * The window after organization A's first job started in which its next jobs take every slot
 * they may. No event marks a slot the reserve keeps idle, so the window stands in for it.
 */
const CLAIM_WINDOW_MS = 2_000;

const SCHEMA = [
  { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
  { category: 'letter', criteria: ['addressed to a person, signed by the sender'] },
];

type Org = ReturnType<typeof client>;

export interface FairnessSetup {
  app(): TestApp;
  files(): FileServer;
  /** Checks the burst's jobs went to the queue under test. */
  queuedWhereExpected?(jobIds: string[]): Promise<void>;
}

/**
 * One organization's burst of async work never keeps another's sync request waiting for the
 * burst's running tasks: each of A's jobs holds its cpu slot until its held download is
 * released (the slot a multi-page document's task holds for seconds), and B's sync
 * classification must answer while all of them still run or wait; every job of the burst
 * runs once released. A burst alone still takes every slot. The same for each queue system.
 */
export function tenantFairnessCases(setup: FairnessSetup): void {
  async function burst(org: Org, name: string, jobs: number) {
    const files = setup.files();
    const held = Array.from({ length: jobs }, (_, i) =>
      files.hold(`/${name}-${i}.txt`, `Invoice number ${i}. Total amount due: 10.00`),
    );
    const ids: string[] = [];
    for (const h of held) {
      const res = await org.post('/classify_async', {
        input: h.url,
        classification_schema: SCHEMA,
      });
      expect(res.status).toBe(200);
      ids.push(res.body.job_id as string);
    }
    await setup.queuedWhereExpected?.(ids);
    const started = () => files.requests.filter((r) => r.startsWith(`/${name}-`)).length;
    return { held, ids, started };
  }

  async function releaseAndComplete(org: Org, burstOf: Awaited<ReturnType<typeof burst>>) {
    for (const h of burstOf.held) h.release();
    for (const id of burstOf.ids) {
      await waitFor(`job ${id} to complete`, async () => {
        const status = (await org.get(`/job/${id}`)).body.status;
        expect(status).not.toBe('Failed');
        return status === 'Completed';
      });
    }
  }

  it('lets a burst alone take every cpu slot', async () => {
    const a = client(setup.app().baseUrl, await keyOf(setup.app(), 'org-burst'));
    const alone = await burst(a, 'alone', 3);
    await waitFor('two of the burst running at once', () => alone.started() >= 2);
    await releaseAndComplete(a, alone);
  });

  it("answers the other organization's sync request while the burst's jobs still run", async () => {
    const t = setup.app();
    const a = client(t.baseUrl, await keyOf(t, 'org-burst'));
    const b = client(t.baseUrl, await keyOf(t, 'org-sync'));
    const document = setup.files().put('/b.txt', 'Invoice number 77. Total amount due: 120.00');
    // B is a sync user: its requests are what the reserve is kept for.
    expect(
      (await b.post('/classify', { input: document, classification_schema: SCHEMA })).status,
    ).toBe(200);

    const beside = await burst(a, 'beside', 3);
    await waitFor("the burst's first job running", () => beside.started() >= 1);
    await negativeWindow(CLAIM_WINDOW_MS);

    const answer = await b.post('/classify', { input: document, classification_schema: SCHEMA });
    expect(answer.status).toBe(200);
    // None of A's jobs could end meanwhile: their downloads are still held.
    for (const id of beside.ids) expect((await a.get(`/job/${id}`)).body.status).toBe('Pending');
    await releaseAndComplete(a, beside);
  });
}
