import type { OpenAPIObject, OperationObject } from '@nestjs/swagger';

const DOCUMENT = 'https://example.com/documents/invoice-2026-001.pdf';
const UPLOADED = 'docproc://3f1c2a9e-5b7d-4e21-9c0a-8d6f4b2e1a77.pdf';
const ASYNC = { metadata: { team: 'finance', batch: 7 } };

const CLASSIFY = {
  input: DOCUMENT,
  classification_schema: [
    { category: 'invoice', criteria: ['has an invoice number', 'lists amounts due'] },
    { category: 'receipt', criteria: ['shows a payment already made'] },
  ],
};
const PARSE = { input: UPLOADED };
const EXTRACT = {
  input: DOCUMENT,
  instructions: {
    schema: {
      type: 'object',
      properties: {
        invoice_number: { type: 'string', description: 'The invoice number' },
        total: { type: 'number', description: 'The amount due' },
      },
    },
  },
};
const SPLIT = {
  input: UPLOADED,
  split_description: [
    { name: 'invoice', description: 'Pages of an invoice' },
    { name: 'contract', description: 'Pages of a signed contract' },
  ],
};

const EDIT = {
  document_url: UPLOADED,
  edit_instructions: "name: Ada Lovelace, start date 1 March 2027, tick 'married'",
  edit_options: { flatten: false, enable_overflow_pages: true },
};
const PIPELINE = {
  name: 'invoices by kind',
  description: 'Classify, then extract the fields of the kind found',
  parse: { settings: { page_range: { start: 1, end: 5 } } },
  steps: [
    {
      classify: {
        classification_schema: CLASSIFY.classification_schema,
        extract_by_category: { invoice: { instructions: EXTRACT.instructions } },
      },
    },
  ],
};
const PIPELINE_RUN = { input: UPLOADED, pipeline_id: 'pl_0b6f2f0e-2d1c-4c55-9a53-5c7f1d2e8a41' };

/** A request body example per operation, by operationId and media type. */
const EXAMPLES: Record<string, Record<string, unknown>> = {
  createProcessingKey: { 'application/json': { name: 'ci' } },
  createAccountKey: { 'application/json': { name: 'laptop' } },
  enableMetadataKey: { 'application/json': { key: 'team' } },
  createUsageAlert: {
    'application/json': {
      measure: 'credits',
      period: 'month',
      threshold: '1000',
      product: 'parse',
    },
  },
  classify: { 'application/json': CLASSIFY },
  classifyAsync: { 'application/json': { ...CLASSIFY, async: ASYNC } },
  parse: { 'application/json': PARSE },
  parseAsync: { 'application/json': { ...PARSE, async: ASYNC } },
  extract: { 'application/json': EXTRACT },
  extractAsync: { 'application/json': { ...EXTRACT, async: ASYNC } },
  split: { 'application/json': SPLIT },
  splitAsync: { 'application/json': { ...SPLIT, async: ASYNC } },
  edit: { 'application/json': EDIT },
  editAsync: {
    'application/json': {
      ...EDIT,
      webhook: {
        mode: 'direct',
        url: 'https://hooks.example.com/docproc',
        metadata: ASYNC.metadata,
      },
    },
  },
  createPipeline: { 'application/json': PIPELINE },
  pipeline: { 'application/json': PIPELINE_RUN },
  pipelineAsync: { 'application/json': { ...PIPELINE_RUN, async: ASYNC } },
  createWebhookEndpoint: {
    'application/json': { url: 'https://hooks.example.com/docproc', description: 'Jobs done' },
  },
  upload: { 'multipart/form-data': { file: '%PDF-1.7 ...' } },
  presignedUpload: { 'application/octet-stream': '%PDF-1.7 ...' },
};

/**
 * An `example` on every request body the document describes, from the table above; an
 * operation missing from it keeps what its decorators gave (the API description spec checks
 * that every request body has one).
 */
export function applyRequestExamples(document: OpenAPIObject): void {
  for (const item of Object.values(document.paths)) {
    for (const operation of [item.post, item.put, item.patch] as (OperationObject | undefined)[]) {
      const body = operation?.requestBody;
      const examples = operation?.operationId ? EXAMPLES[operation.operationId] : undefined;
      if (!body || !('content' in body) || !examples) continue;
      for (const [mediaType, example] of Object.entries(examples)) {
        const media = body.content[mediaType];
        if (media && media.example === undefined && !media.examples) media.example = example;
      }
    }
  }
}
