import { describe, expect, it } from '@jest/globals';
import {
  isDeepWork,
  isJobOperation,
  JOB_OPERATIONS,
  jobTypesOfTask,
  OPERATIONS,
  operationOfType,
} from './operations.js';

describe(isDeepWork.name, () => {
  it('marks Deep Classify, deep extract and deep split as deep', () => {
    expect(isDeepWork('Classify', { model: 'accurate' })).toBe(true);
    expect(isDeepWork('Extract', { settings: { deep_extract: true } })).toBe(true);
    expect(isDeepWork('Split', { settings: { deep_split: true } })).toBe(true);
  });

  it('leaves default models, plain extract/split and parse to the other workers', () => {
    expect(isDeepWork('Classify', { model: 'default' })).toBe(false);
    expect(isDeepWork('Classify', {})).toBe(false);
    expect(isDeepWork('Extract', { settings: { deep_extract: false } })).toBe(false);
    expect(isDeepWork('Extract', { settings: { deep_split: true } })).toBe(false);
    expect(isDeepWork('Split', { settings: null })).toBe(false);
    expect(isDeepWork('Parse', { model: 'accurate', settings: { deep_extract: true } })).toBe(
      false,
    );
  });
});

describe('OPERATIONS', () => {
  it('names each operation by one job type, read back to the same operation', () => {
    const types = JOB_OPERATIONS.map((operation) => OPERATIONS[operation].jobType);
    expect(new Set(types).size).toBe(JOB_OPERATIONS.length);
    for (const operation of JOB_OPERATIONS)
      expect(operationOfType(OPERATIONS[operation].jobType)).toBe(operation);
    expect(() => operationOfType('Translate')).toThrow(/Unknown job type "Translate"/);
  });

  it('gives every job type to exactly one queue command kind', () => {
    const kinds = [...new Set(JOB_OPERATIONS.map((o) => OPERATIONS[o].taskKind))];
    const covered = kinds.flatMap((kind) => jobTypesOfTask(kind)).sort();
    expect(covered).toEqual(JOB_OPERATIONS.map((o) => OPERATIONS[o].jobType).sort());
    expect(jobTypesOfTask('no-such-kind')).toEqual([]);
  });

  it('knows an operation only by a name the table has', () => {
    expect(JOB_OPERATIONS.every(isJobOperation)).toBe(true);
    expect(isJobOperation('toString')).toBe(false);
    expect(isJobOperation(undefined)).toBe(false);
  });
});
