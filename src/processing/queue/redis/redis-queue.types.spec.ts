import { describe, expect, it } from '@jest/globals';
import { redisJobTaskOf, type RedisJobTask } from './redis-queue.types.js';

describe('redisJobTaskOf', () => {
  it('reads a task of the classify-only release as a classify task', () => {
    const task = redisJobTaskOf({
      jobId: 'j1',
      orgId: 'o1',
      inputs: [{ url: 'https://example.com/a.pdf' }, { blob: 'f1', fileName: 'f1' }],
      classificationSchema: [{ category: 'invoice', criteria: ['number'] }],
      model: 'accurate',
      pageRange: { start: 1, end: 2 },
      documentMetadata: 'meta',
      categoryGroups: { money: ['invoice'] },
    });
    expect(task).toEqual({
      jobId: 'j1',
      orgId: 'o1',
      operation: 'classify',
      kind: 'classify',
      inputs: [{ url: 'https://example.com/a.pdf' }, { blob: 'f1', fileName: 'f1' }],
      request: {
        input: ['https://example.com/a.pdf', 'docproc://f1'],
        classification_schema: [{ category: 'invoice', criteria: ['number'] }],
        model: 'accurate',
        page_range: { start: 1, end: 2 },
        document_metadata: 'meta',
        category_groups: { money: ['invoice'] },
      },
      versions: null,
    });
  });

  it('leaves a task of the current shape as it is', () => {
    const task: RedisJobTask = {
      jobId: 'j2',
      orgId: 'o1',
      operation: 'split',
      kind: 'operation',
      inputs: [{ url: 'https://example.com/b.pdf' }],
      request: { input: 'https://example.com/b.pdf' },
      versions: { deepSplit: { family: 'deep_split_model' } },
    };
    expect(redisJobTaskOf(task)).toBe(task);
  });

  it('takes the versions of a task that kept them inside its request out of it', () => {
    const versions = { layout: { family: 'layout_model' } };
    const task = redisJobTaskOf({
      jobId: 'j3',
      orgId: 'o1',
      operation: 'parse',
      kind: 'operation',
      inputs: [{ url: 'https://example.com/c.pdf' }],
      request: { input: 'https://example.com/c.pdf', __kind: 'parse', __versions: versions },
    });
    expect(task.request).toEqual({ input: 'https://example.com/c.pdf' });
    expect(task.versions).toEqual(versions);
  });
});
