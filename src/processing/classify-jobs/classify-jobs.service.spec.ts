import { beforeEach, describe, expect, it, jest } from '@jest/globals';
import type { ProcessingPrincipal } from '../../accounts/principal.js';
import { RequestValidationError } from '../../common/validation-error.js';
import type { AppConfig } from '../../config/app-config.js';
import type { Submission } from '../jobs/job-pipeline.js';
import type { JobReconciler } from '../jobs/job-reconciler.js';
import type { JobRunner } from '../jobs/job-runner.service.js';
import { type JobRecord } from '../core/job.types.js';
import { PAGE_RANGE_INVALID } from '../core/processing-error.js';
import type { JobsService } from '../jobs/jobs.service.js';
import { validateModel } from '../requests/request-validation.js';
import type { ClassifyTaskResult } from '../../documents/executors/operation.task.js';
import type { OperationExecutors } from '../operations/operation-executors.js';
import { ClassifyJobsService } from './classify-jobs.service.js';
import { CLASSIFY_TASK } from '../core/task-kinds.js';
import { ClassifyConfigDto } from '../operations/classify/classify-request.dto.js';

const principal = { orgId: 'org_1', keyId: 'pk_1' } as ProcessingPrincipal;
const config = {
  processing: {
    classifyLimits: {
      maxCategories: 3,
      maxCategoryChars: 40,
      maxCriterionChars: 200,
      maxDocumentMetadataChars: 1000,
    },
  },
} as unknown as AppConfig;

/** A classify request as the API validated it (defaults applied by the DTO). */
function request(body: Record<string, unknown> = {}): ClassifyConfigDto {
  const { instance, issues } = validateModel(ClassifyConfigDto, {
    input: 'https://files.test/a.pdf',
    classification_schema: [
      { category: 'invoice', criteria: ['has a total'] },
      { category: 'receipt', criteria: ['has a till number'] },
    ],
    ...body,
  });
  if (!instance) throw new Error(JSON.stringify(issues));
  return instance;
}

const outcome: ClassifyTaskResult = {
  document: { fileType: 'pdf', totalPages: 7, pages: [] },
  output: {
    result: { category: 'invoice' },
    response_confidence: {
      categories: [
        {
          category: 'invoice',
          confidence: 1,
          criteria_confidence: [{ criterion: 'has a total', confidence: 'high' }],
        },
      ],
    },
    usage: { num_pages: 2, num_categories: 1 },
  },
};

function setUp() {
  const runner = {
    register: jest.fn(),
    submitAsync: jest.fn(async (..._args: unknown[]) => ({ job_id: 'job_1' })),
    runSync: jest.fn(async (..._args: unknown[]) => ({ category: 'invoice' })),
  };
  const reconciler = { watch: jest.fn() };
  const jobsService = { resultView: jest.fn(async (_job: JobRecord): Promise<unknown> => null) };
  const executors = { runClassify: jest.fn(async (..._args: unknown[]) => outcome) };
  const sut = new ClassifyJobsService(
    config,
    runner as unknown as JobRunner,
    reconciler as unknown as JobReconciler,
    jobsService as unknown as JobsService,
    executors as unknown as OperationExecutors,
  );
  /** The submission the service handed to the runner, and a job stored from it. */
  const submitted = (call = 0) => {
    const submission = (runner.submitAsync.mock.calls[call]?.[2] ??
      runner.runSync.mock.calls[call]?.[2]) as Submission;
    const { type, versions } = submission;
    const job = {
      jobId: 'job_1',
      type,
      request: submission.request,
      versions,
    } as unknown as JobRecord;
    return { submission, job };
  };
  return { sut, runner, reconciler, jobsService, executors, submitted };
}

describe(ClassifyJobsService.name, () => {
  let t: ReturnType<typeof setUp>;

  beforeEach(() => {
    t = setUp();
  });

  it('registers as the classify pipeline with the runner and the reconciler', () => {
    t.sut.onModuleInit();
    expect(t.sut.taskKind).toBe(CLASSIFY_TASK);
    expect(t.runner.register).toHaveBeenCalledWith(t.sut);
    expect(t.reconciler.watch).toHaveBeenCalledWith(t.sut);
  });

  describe('submission', () => {
    it('async: stores the request, metadata and persist flag; outside the admission cap', async () => {
      const body = request({
        persist_results: true,
        async: { metadata: { team: 'risk' }, priority: true },
      });
      await expect(t.sut.submitAsync(principal, body)).resolves.toEqual({ job_id: 'job_1' });
      const { submission } = t.submitted();
      expect(t.runner.submitAsync).toHaveBeenCalledWith(t.sut, principal, submission);
      expect(submission).toMatchObject({
        type: 'Classify',
        isAsync: true,
        metadata: { team: 'risk' },
        persistResult: true,
        lane: 'priority',
        gated: false,
      });
      // Stored as plain JSON (what the job row holds), not the DTO instance.
      expect(submission.request).not.toBeInstanceOf(ClassifyConfigDto);
      expect(submission.request.input).toBe('https://files.test/a.pdf');
    });

    it('sync: gated by the admission cap, no metadata, lane from `priority`', async () => {
      const signal = new AbortController().signal;
      await t.sut.runSync(principal, request({ priority: false }), signal);
      const { submission } = t.submitted();
      expect(t.runner.runSync).toHaveBeenCalledWith(t.sut, principal, submission, signal);
      expect(submission).toMatchObject({
        isAsync: false,
        metadata: undefined,
        lane: 'standard',
        gated: true,
      });
    });

    it('refuses a schema over the configured limits with a 422 before any job exists', async () => {
      const four = ['a', 'b', 'c', 'd'].map((category) => ({ category, criteria: ['x'] }));
      // Thrown as the request is read (the controller's await turns it into the 422).
      const error = await Promise.resolve()
        .then(() => t.sut.submitAsync(principal, request({ classification_schema: four })))
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect(JSON.stringify((error as RequestValidationError).getResponse())).toContain(
        'MAX_CATEGORIES',
      );
      expect(t.runner.submitAsync).not.toHaveBeenCalled();
    });
  });

  describe('pipeline', () => {
    it('runs the classify task of the stored request and the resolved documents', async () => {
      await t.sut.submitAsync(principal, request({ model: 'accurate', page_range: [1, 2] }));
      const { job } = t.submitted();
      const documents = [
        { bytes: new Uint8Array([1]), fileName: 'a.pdf', contentType: 'application/pdf' },
      ];
      const signal = new AbortController().signal;
      await expect(t.sut.run(job, documents, signal)).resolves.toBe(outcome);
      expect(t.executors.runClassify).toHaveBeenCalledWith(
        expect.objectContaining({
          kind: 'classify',
          documents: [
            { bytes: documents[0]!.bytes, name: 'a.pdf', contentType: 'application/pdf' },
          ],
          model: 'accurate',
          pageRange: [1, 2],
        }),
        signal,
      );
    });

    it('bills deep_classify for the accurate model and classify otherwise', async () => {
      await t.sut.submitAsync(principal, request({ model: 'accurate' }));
      await t.sut.submitAsync(principal, request());
      expect(t.sut.billing(t.submitted(0).job, outcome)).toEqual({
        product: 'classify',
        feature: 'deep_classify',
        pages: 2,
        totalPages: 7,
        fileType: 'pdf',
      });
      expect(t.sut.billing(t.submitted(1).job, outcome).feature).toBe('classify');
    });

    it('adds the grouping of the chosen category only when groups were asked for', async () => {
      await t.sut.submitAsync(principal, request({ category_groups: { money: ['invoice'] } }));
      await t.sut.submitAsync(principal, request());
      const grouped = t.sut.result(t.submitted(0).job, outcome, '2.5', 1.25);
      expect(grouped).toMatchObject({
        job_id: 'job_1',
        result: { category: 'invoice' },
        usage: { num_pages: 2, num_categories: 1, credits: 2.5 },
        duration: 1.25,
        extra_metadata: { grouping: 'money' },
      });
      expect(t.sut.result(t.submitted(1).job, outcome, '2.5', 1.25)).not.toHaveProperty(
        'extra_metadata',
      );
      // The classifier's own grouping wins over the lookup.
      const withGrouping = { ...outcome.output, extra_metadata: { grouping: 'other' } };
      const own = t.sut.result(t.submitted(0).job, { ...outcome, output: withGrouping }, '1', 1);
      expect(own).toMatchObject({ extra_metadata: { grouping: 'other' } });
    });

    it('answers a failed page_range with a 422 on body.page_range, other failures generically', async () => {
      await t.sut.submitAsync(principal, request({ page_range: { start: 9, end: 12 } }));
      const { job } = t.submitted();
      const failed = { ...job, errorCode: PAGE_RANGE_INVALID, reason: 'the document has 3 pages' };
      const error = t.sut.syncFailure(failed as JobRecord);
      expect(error).toBeInstanceOf(RequestValidationError);
      expect((error as RequestValidationError).getResponse()).toMatchObject({
        detail: [
          {
            loc: ['body', 'page_range'],
            msg: 'Value error, the document has 3 pages',
            type: 'value_error',
            input: { start: 9, end: 12 },
          },
        ],
      });
      expect(t.sut.syncFailure({ ...job, errorCode: 'CORRUPT_DOCUMENT' } as JobRecord)).toBe(
        undefined,
      );
    });

    it("answers a sync job with the jobs service's result view, or nothing", async () => {
      await t.sut.submitAsync(principal, request());
      const { job } = t.submitted();
      await expect(t.sut.syncResult(job)).resolves.toEqual({});
      t.jobsService.resultView.mockResolvedValueOnce({ result_url: 'https://r.test/1' });
      await expect(t.sut.syncResult(job)).resolves.toEqual({ result_url: 'https://r.test/1' });
    });
  });
});
