import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { FileServer, startFileServer } from '../../support/file-server.js';
import { client, keyOf, type Json } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';
import { waitFor } from '../../support/wait.js';

jest.setTimeout(300_000);

// Twice the 15 s the other organization's parse may take, so the slow jobs are still
// downloading when it has answered, however loaded the machine (a parse waiting for their
// cpu worker would wait until the deadline frees it).
const DEADLINE_MS = 30_000;
const OTHER_PARSE_MS = DEADLINE_MS / 2;
const MAX_INPUTS = 5;

/**
 * URL inputs are downloaded before their job takes a cpu worker, per organization: while
 * one organization's slow URLs download (a server that does not answer), another
 * organization's sync parse answers at once, and the slow jobs fail when their deadline
 * passes, each of them accounted for.
 */
describe('slow URL inputs hold no cpu worker and delay no other organization', () => {
  let t: TestApp;
  let files: FileServer;

  beforeAll(async () => {
    files = await startFileServer();
    t = await startTestApp({
      FETCH_ALLOW_HOSTS: '127.0.0.1',
      CPU_WORKER_CONCURRENCY: '2',
      FETCH_CONCURRENCY_PER_ORG: '4',
      FETCH_DEADLINE_MS: String(DEADLINE_MS),
      FETCH_TIMEOUT_MS: '60000',
      MAX_INPUTS_PER_REQUEST: String(MAX_INPUTS),
    });
  });
  afterAll(async () => {
    await t?.close();
    await files.close();
  });

  it("answers another organization's sync parse while slow inputs download; they fail at the deadline", async () => {
    const slowOrg = client(t.baseUrl, await keyOf(t, 'org-slow'));
    const otherOrg = client(t.baseUrl, await keyOf(t, 'org-other'));
    // Three async parses of four URLs each, on a server that answers only when released.
    const held = Array.from({ length: 12 }, (_, i) =>
      files.hold(`/slow-${i}.txt`, `slow document ${i}`),
    );
    const submitted: string[] = [];
    for (let job = 0; job < 3; job++) {
      const input = held.slice(job * 4, job * 4 + 4).map((h) => h.url);
      const res = await slowOrg.post('/parse_async', { input });
      expect(res.status).toBe(200);
      submitted.push(res.body.job_id as string);
    }
    // The first job's four downloads have started (the organization's share); the others wait.
    await waitFor(
      'four slow downloads in flight',
      async () => files.requests.filter((r) => r.startsWith('/slow-')).length >= 4,
    );

    const started = Date.now();
    const fast = files.put('/fast.txt', 'Invoice number 77. Total amount due: 120.00');
    const parsed = await otherOrg.post('/parse', { input: fast });
    const elapsed = Date.now() - started;
    expect(parsed.status).toBe(200);
    expect(JSON.stringify(parsed.body.result)).toContain('Invoice number 77');
    expect(elapsed).toBeLessThan(OTHER_PARSE_MS);
    // The slow organization's jobs were still downloading meanwhile.
    for (const id of submitted)
      expect((await slowOrg.get(`/job/${id}`)).body.status).toBe('Pending');

    // Each slow job fails at its deadline, with a code and the setting named; none is lost.
    const jobs: Json[] = [];
    for (const id of submitted) {
      let job: Json = {};
      await waitFor(
        `job ${id} to fail`,
        async () => {
          job = (await slowOrg.get(`/job/${id}`)).body;
          return job.status === 'Failed';
        },
        4 * DEADLINE_MS + 30_000,
      );
      jobs.push(job);
    }
    for (const job of jobs) expect(job.reason).toContain('FETCH_DEADLINE_MS');
    for (const h of held) h.release();
  });

  it('downloads and parses URL inputs before the job runs, several per request', async () => {
    const org = client(t.baseUrl, await keyOf(t, 'org-many'));
    const input = [
      files.put('/part-1.txt', 'First part: delivery note 4410'),
      files.put('/part-2.txt', 'Second part: signed by the receiver'),
    ];
    const res = await org.post('/parse', { input });
    expect(res.status).toBe(200);
    const text = JSON.stringify(res.body.result);
    expect(text).toContain('delivery note 4410');
    expect(text).toContain('signed by the receiver');
  });

  it('refuses more inputs than MAX_INPUTS_PER_REQUEST with a 422 naming the field', async () => {
    const org = client(t.baseUrl, await keyOf(t, 'org-many'));
    const input = Array.from({ length: MAX_INPUTS + 1 }, (_, i) => `${files.baseUrl}/x-${i}.txt`);
    for (const route of ['/parse', '/parse_async']) {
      const res = await org.post(route, { input });
      expect(res.status).toBe(422);
      expect(res.body.detail[0]).toMatchObject({
        loc: ['body', 'input'],
        type: 'too_long',
        ctx: { max_length: MAX_INPUTS, actual_length: MAX_INPUTS + 1 },
      });
      expect(res.body.detail[0].msg).toContain('MAX_INPUTS_PER_REQUEST');
    }
    expect(files.requests.filter((r) => r.startsWith('/x-'))).toEqual([]);
  });
});
