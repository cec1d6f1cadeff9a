import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { REQUEST_LIMITS } from '../../../src/processing/requests/request-limits.js';
import { seedAccount, type SeededAccount } from '../../support/accounts.js';
import { makeFlatForm } from '../../support/edit-forms.js';
import { client, uploadPdf, waitForJob } from '../../support/processing-client.js';
import { startTestApp, type TestApp } from '../../support/test-app.js';

type Detail = {
  loc: (string | number)[];
  msg: string;
  type: string;
  ctx?: Record<string, unknown>;
};
type Schema = { properties: Record<string, Record<string, unknown>> };

/**
 * The free-text and list fields of edit and pipeline requests are bounded in their DTOs: a
 * body past a bound is refused with a 422 naming the field and the bound, at once (before
 * any job, any document fetch or any matching), and the bounds are in the OpenAPI
 * description. A body at the bound is still accepted.
 */
describe('bounded fields of edit and pipeline requests', () => {
  let t: TestApp;
  let org: SeededAccount;
  let fileId: string;
  let formSchema: unknown[];

  beforeAll(async () => {
    t = await startTestApp();
    org = await seedAccount(t.app, 'Limits Co');
    const form = await makeFlatForm([{ label: 'Full name', type: 'text' }]);
    formSchema = form.boxes.map(({ page, left, top, width, height, label, type }) => ({
      bbox: { page, left, top, width, height },
      description: label,
      type,
    }));
    fileId = await uploadPdf(t.baseUrl, org.processingKey, form.bytes, 'form.pdf');
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: unknown) =>
    client(t.baseUrl, org.processingKey).post(path, body);

  async function refused(path: string, body: unknown): Promise<Detail[]> {
    const started = performance.now();
    const answer = await post(path, body);
    expect(answer.status).toBe(422);
    // Refused at the edge: no fetch, no executor, no matching (the 422's detail says where;
    // the bound is against minutes of work, with room for a loaded machine).
    expect(performance.now() - started).toBeLessThan(30_000);
    return (answer.body as { detail: Detail[] }).detail;
  }

  const maxPieces = REQUEST_LIMITS.editInstructionPieces;
  const lines = (count: number) =>
    Array.from({ length: count }, (_, i) => `field number ${i}: value ${i}`).join('\n');

  it('refuses edit_instructions with more items than the bound, naming the field and the bound', async () => {
    for (const path of ['/edit', '/edit_async']) {
      const detail = await refused(path, {
        document_url: fileId,
        edit_instructions: lines(maxPieces + 1),
      });
      expect(detail).toEqual([
        expect.objectContaining({
          loc: ['body', 'edit_instructions'],
          type: 'too_many_instructions',
          ctx: { max_items: maxPieces, actual_items: maxPieces + 1 },
        }),
      ]);
      expect(detail[0].msg).toContain(`at most ${maxPieces} items`);
    }
  });

  it('refuses edit_instructions longer than the bound in characters', async () => {
    const max = REQUEST_LIMITS.editInstructionChars;
    const detail = await refused('/edit', {
      document_url: fileId,
      edit_instructions: `remarks: ${'x'.repeat(max)}`,
    });
    expect(detail).toEqual([
      expect.objectContaining({
        loc: ['body', 'edit_instructions'],
        type: 'string_too_long',
        msg: `String should have at most ${max} characters`,
        ctx: { max_length: max, actual_length: max + 9 },
      }),
    ]);
  });

  it('accepts instructions at the bound (the limit is far above real use, not in its way)', async () => {
    const answer = await post('/edit_async', {
      document_url: fileId,
      edit_instructions: `${lines(maxPieces - 1)}\nfull name: Ada Lovelace`,
      form_schema: formSchema,
    });
    expect(answer.status).toBe(200);
    const { job_id } = answer.body as { job_id: string };
    const job = await waitForJob(client(t.baseUrl, org.processingKey), job_id, 150_000);
    expect(job).toMatchObject({ status: 'Completed' });
    expect(job.result.report.filled).toEqual([
      expect.objectContaining({ value: 'Ada Lovelace', instruction: 'full name: Ada Lovelace' }),
    ]);
  }, 180_000);

  it('bounds form_schema, its descriptions and values, and the webhook channels', async () => {
    const box = {
      bbox: { page: 1, left: 0.1, top: 0.1, width: 0.2, height: 0.05 },
      description: 'Full name',
      type: 'text',
    };
    const tooMany = await refused('/edit', {
      document_url: fileId,
      edit_instructions: 'name: Ada',
      form_schema: Array.from({ length: REQUEST_LIMITS.formSchemaWidgets + 1 }, () => box),
    });
    expect(tooMany).toEqual([
      expect.objectContaining({
        loc: ['body', 'form_schema'],
        type: 'too_long',
        ctx: expect.objectContaining({ max_length: REQUEST_LIMITS.formSchemaWidgets }),
      }),
    ]);
    const long = await refused('/edit', {
      document_url: fileId,
      edit_instructions: 'name: Ada',
      form_schema: [
        { ...box, description: 'd'.repeat(REQUEST_LIMITS.widgetDescriptionChars + 1) },
        { ...box, value: 'v'.repeat(REQUEST_LIMITS.fieldValueChars + 1) },
      ],
      webhook: { mode: 'svix', channels: Array.from({ length: 101 }, (_, i) => `c${i}`) },
    });
    expect(long.map((d) => [d.loc, d.type])).toEqual([
      [['body', 'form_schema', 0, 'description'], 'string_too_long'],
      [['body', 'form_schema', 1, 'value'], 'string_too_long'],
      [['body', 'webhook', 'channels'], 'too_long'],
    ]);
  });

  it('bounds a stored pipeline and a run: names, descriptions, categories, rules, password', async () => {
    const category = { name: 'invoice', description: 'An invoice' };
    const detail = await refused('/pipelines', {
      name: 'n'.repeat(REQUEST_LIMITS.nameChars + 1),
      description: 'd'.repeat(REQUEST_LIMITS.descriptionChars + 1),
      steps: [
        {
          split: {
            split_description: Array.from(
              { length: REQUEST_LIMITS.stepCategories + 1 },
              () => category,
            ),
            split_rules: 'r'.repeat(REQUEST_LIMITS.descriptionChars + 1),
          },
        },
      ],
    });
    expect(detail.map((d) => d.loc.join('.')).sort()).toEqual([
      'body.description',
      'body.name',
      'body.steps.0.split.split_description',
      'body.steps.0.split.split_rules',
    ]);
    const secret = 'p'.repeat(REQUEST_LIMITS.documentPasswordChars + 1);
    const run = await refused('/pipeline', {
      input: fileId,
      pipeline_id: 'i'.repeat(REQUEST_LIMITS.nameChars + 1),
      settings: { document_password: secret },
    });
    expect(run.map((d) => [d.loc, d.type])).toEqual([
      [['body', 'pipeline_id'], 'string_too_long'],
      [['body', 'settings', 'document_password'], 'string_too_long'],
    ]);
    // A password is never echoed back, even a wrong one.
    expect(JSON.stringify(run)).not.toContain('ppppp');
  });

  it('publishes the bounds in the OpenAPI description', async () => {
    const doc = (await (await fetch(`${t.baseUrl}/openapi.json`)).json()) as {
      components: { schemas: Record<string, Schema> };
    };
    const { schemas } = doc.components;
    expect(schemas.EditConfig.properties.edit_instructions).toMatchObject({
      maxLength: REQUEST_LIMITS.editInstructionChars,
      description: expect.stringContaining(`${maxPieces} items`),
    });
    expect(schemas.CreatePipeline.properties.name).toMatchObject({
      maxLength: REQUEST_LIMITS.nameChars,
    });
    expect(JSON.stringify(schemas.EditConfig.properties.form_schema)).toContain(
      `"maxItems":${REQUEST_LIMITS.formSchemaWidgets}`,
    );
  });
});

/**
 * A pipeline's classify step is held to the classify request's own settings (MAX_CATEGORIES,
 * MAX_CRITERION_CHARS, ...), not to a bound of its own: what /classify refuses a pipeline
 * refuses with the same detail at the step's path, and what /classify accepts (here past
 * the former fixed cap of 200 categories, the operator having raised MAX_CATEGORIES) a
 * pipeline accepts.
 */
describe('the classify settings bound a pipeline classify step as they bound /classify', () => {
  const maxCategories = 250;
  const maxCriterionChars = 40;
  let t: TestApp;
  let org: SeededAccount;
  let fileId: string;

  beforeAll(async () => {
    t = await startTestApp({
      MAX_CATEGORIES: String(maxCategories),
      MAX_CRITERION_CHARS: String(maxCriterionChars),
    });
    org = await seedAccount(t.app, 'Pipeline Limits Co');
    const form = await makeFlatForm([{ label: 'Full name', type: 'text' }]);
    fileId = await uploadPdf(t.baseUrl, org.processingKey, form.bytes, 'form.pdf');
  }, 60_000);
  afterAll(async () => {
    await t.close();
  });

  const post = (path: string, body: unknown) =>
    client(t.baseUrl, org.processingKey).post(path, body);
  const detailOf = (answer: { body: unknown }) => (answer.body as { detail: Detail[] }).detail;
  const schemaOf = (count: number) =>
    Array.from({ length: count }, (_, i) => ({ category: `kind ${i}`, criteria: [`mark${i}`] }));
  /** A pipeline whose classify step is its second, so the path names the step's index. */
  const pipelineWith = (classify: Record<string, unknown>) => ({
    name: 'classify limits',
    steps: [
      { split: { split_description: [{ name: 'part', description: 'Any part' }] } },
      { classify },
    ],
  });

  it('refuses a classify step past MAX_CATEGORIES or MAX_CRITERION_CHARS, naming the path in the step', async () => {
    const tooMany = schemaOf(maxCategories + 1);
    const direct = await post('/classify', { input: fileId, classification_schema: tooMany });
    expect(direct.status).toBe(422);
    const [classifyDetail] = detailOf(direct);
    expect(classifyDetail.loc).toEqual(['body', 'classification_schema']);
    expect(classifyDetail.msg).toContain('MAX_CATEGORIES');

    const stored = await post('/pipelines', pipelineWith({ classification_schema: tooMany }));
    expect(stored.status).toBe(422);
    expect(detailOf(stored)).toEqual([
      { ...classifyDetail, loc: ['body', 'steps', 1, 'classify', 'classification_schema'] },
    ]);

    const longCriterion = 'c'.repeat(maxCriterionChars + 1);
    const long = await post(
      '/pipelines',
      pipelineWith({ classification_schema: [{ category: 'memo', criteria: [longCriterion] }] }),
    );
    expect(long.status).toBe(422);
    expect(detailOf(long)).toEqual([
      expect.objectContaining({
        loc: ['body', 'steps', 1, 'classify', 'classification_schema', 0, 'criteria', 0],
        type: 'string_too_long',
        ctx: expect.objectContaining({
          max_length: maxCriterionChars,
          setting: 'MAX_CRITERION_CHARS',
        }),
      }),
    ]);
  });

  it('accepts in a pipeline the category count /classify accepts', async () => {
    const atLimit = schemaOf(maxCategories);
    const stored = await post('/pipelines', pipelineWith({ classification_schema: atLimit }));
    expect(stored.status).toBe(201);
    expect((stored.body as { pipeline_id: string }).pipeline_id).toMatch(/^pl_/);
    const direct = await post('/classify', { input: fileId, classification_schema: atLimit });
    expect(direct.status).toBe(200);
  }, 60_000);
});
