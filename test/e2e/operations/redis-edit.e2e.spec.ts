import { afterAll, beforeAll, describe, expect, it, jest } from '@jest/globals';
import { PDFDocument } from 'pdf-lib';
import { DuckDbService } from '../../../src/database/duckdb.service.js';
import { realForm } from '../../support/edit-forms.js';
import {
  databaseQueueTasks,
  type NewQueueSetup,
  startNewQueueSetup,
} from '../../support/new-queue.js';
import { client, keyOf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

jest.setTimeout(180_000);

/**
 * Edit follows its own rollout ratio: with ROLLOUT_RATIO_EDIT at 1 an edit job runs in a
 * Redis worker process (real Redis, a real worker), its edited document travels back in the
 * worker's report and is stored and served by the API process like any other.
 */
describe('edit on the new queue system', () => {
  let setup: NewQueueSetup;
  let t: TestApp;

  beforeAll(async () => {
    setup = await startNewQueueSetup('edit');
    t = await startTestApp({ ...setup.apiEnv, ROLLOUT_RATIO_EDIT: '1' });
  });
  afterAll(async () => {
    await t?.close();
    await setup?.close();
  });

  it('runs an async edit in the worker process and serves the filled form', async () => {
    const api = client(t.baseUrl, await keyOf(t, 'org-redis-edit'));
    const url = setup.files.put('/form.pdf', realForm('libreoffice-form'), 'application/pdf');
    const submitted = await api.post('/edit_async', {
      document_url: url,
      edit_instructions: 'first name: Ada; nationality: German',
    });
    expect(submitted.status).toBe(200);
    const jobId = submitted.body.job_id as string;
    const db = t.app.get(DuckDbService);
    expect(await databaseQueueTasks(db, jobId)).toBe(0);

    const done = await waitForJob(api, jobId);
    expect(done).toMatchObject({ status: 'Completed', type: 'Edit' });
    const res = await fetch(done.result.document_url as string);
    expect(res.headers.get('content-type')).toBe('application/pdf');
    const form = (await PDFDocument.load(Buffer.from(await res.arrayBuffer()))).getForm();
    expect(form.getTextField('First Name').getText()).toBe('Ada');
    expect(form.getDropdown('Nationality').getSelected()).toEqual(['German']);
  });
});
