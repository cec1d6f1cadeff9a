import { describe, expect, it } from '@jest/globals';
import type { DocumentOperationTask } from '../../documents/executors/operation.task.js';
import { commandOfJob, jobCommandOf } from '../operations/job-command.js';
import {
  DeliverWebhookCommand,
  RunJobCommand,
  commandType,
  validateCommand,
} from './queue-command.js';
import { InvalidCommandError } from '../core/processing-error.js';
import { REDIS_JOB_COMMANDS } from './redis/redis-job.command.js';

const RUN = commandType('classify', RunJobCommand);

describe('validateCommand', () => {
  it('returns an instance of the command class for a valid payload', () => {
    const command = validateCommand(RUN, { jobId: 'j1', operation: 'classify' });
    expect(command).toBeInstanceOf(RunJobCommand);
    expect(command).toEqual({ jobId: 'j1', operation: 'classify' });
  });

  it('names the field of a payload that does not fit, and refuses unknown fields', () => {
    const deliver = commandType('webhook.deliver', DeliverWebhookCommand);
    expect(() => validateCommand(deliver, {})).toThrow(/payload\.deliveryId: Field required/);
    expect(() => validateCommand(RUN, { jobId: 'j1', extra: 1 })).toThrow(InvalidCommandError);
    expect(() => validateCommand(RUN, 'j1')).toThrow(InvalidCommandError);
  });

  it('reads a Redis task of the classify-only release in the current shape', () => {
    const task = validateCommand(REDIS_JOB_COMMANDS.classify, {
      jobId: 'j1',
      orgId: 'o1',
      inputs: [{ url: 'https://example.com/a.pdf' }],
      classificationSchema: [{ category: 'invoice', criteria: ['number'] }],
      model: 'default',
      pageRange: null,
      documentMetadata: null,
    });
    expect(task.operation).toBe('classify');
    // And its request validates as the HTTP request it was.
    const command = jobCommandOf(task);
    expect(command.operation).toBe('classify');
  });
});

describe('jobCommandOf', () => {
  it('validates a stored classify request with the HTTP DTO', () => {
    const command = jobCommandOf({
      operation: 'classify',
      request: {
        input: 'https://example.com/a.pdf',
        classification_schema: [{ category: 'invoice', criteria: ['number'] }],
      },
      versions: null,
    });
    expect(command).toMatchObject({ operation: 'classify', request: { model: 'default' } });
  });

  it('reads a job row: its type names the operation, its versions column the versions', () => {
    const versions = {
      layout: { name: 'layout', version: '1' },
    } as unknown as DocumentOperationTask['versions'];
    const command = commandOfJob({
      type: 'Parse',
      request: { input: 'https://example.com/a.pdf' },
      versions,
    });
    expect(command).toMatchObject({ operation: 'parse', versions });
  });

  it('throws InvalidCommandError, never runs on a cast, when a stored job is wrong', () => {
    const parse = (request: Record<string, unknown>, versions: unknown = {}) =>
      jobCommandOf({ operation: 'parse', request, versions });
    expect(() => parse({ input: 42 })).toThrow(/request\.input/);
    // An operation that pins versions, stored without them, is an error naming them.
    expect(() => parse({ input: 'https://example.com/a.pdf' }, null)).toThrow(/versions/);
    // A key beside the request body (as `__kind` was) is no field of the request.
    expect(() => parse({ input: 'https://example.com/a.pdf', __kind: 'parse' })).toThrow(
      InvalidCommandError,
    );
    expect(() => commandOfJob({ type: 'Unknown' as 'Parse', request: {}, versions: null })).toThrow(
      /Unknown job type/,
    );
  });
});
