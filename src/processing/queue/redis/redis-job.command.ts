import {
  Check,
  checker,
  fail,
  isPlainObject,
  ok,
  Required,
} from '../../requests/request-validation.js';
import { list, nonEmptyStr, nullable } from '../../requests/field-checkers.js';
import type { InputSource } from '../../core/input-document.js';
import { isJobOperation, JOB_OPERATIONS } from '../../operations/operations.js';
import { commandType, type CommandType } from '../queue-command.js';
import {
  type ClassifyOnlyTask,
  type RedisOperation,
  redisJobTaskOf,
  type RedisJobTask,
  type VersionsInRequestTask,
} from './redis-queue.types.js';

const operation = checker({ enum: JOB_OPERATIONS }, (v) =>
  isJobOperation(v)
    ? ok(v)
    : fail('enum', `Input should be one of ${JOB_OPERATIONS.join(', ')}`, v),
);

/** `{url}`, `{blob, fileName}`, `{staged, fileName}` or `{parsed, fileName}`, nothing else. */
const inputSource = checker({ type: 'object' }, (v) => {
  if (!isPlainObject(v)) return fail('dict_type', 'Input should be a valid dictionary', v);
  const keys = Object.keys(v).sort().join(',');
  if (keys === 'url' && typeof v.url === 'string' && v.url.length > 0) return ok(v);
  if (keys === 'blob,fileName' && typeof v.blob === 'string' && typeof v.fileName === 'string')
    return ok(v);
  if (keys === 'fileName,staged' && typeof v.staged === 'string' && typeof v.fileName === 'string')
    return ok(v);
  if (keys === 'fileName,parsed' && typeof v.parsed === 'string' && typeof v.fileName === 'string')
    return ok(v);
  return fail(
    'value_error',
    'Input should be {url}, {blob, fileName}, {staged, fileName} or {parsed, fileName}',
    v,
  );
});

const anyObject = checker({ type: 'object' }, (v) =>
  isPlainObject(v) ? ok(v) : fail('dict_type', 'Input should be a valid dictionary', v),
);

/**
 * A job as a self-contained Redis task (RedisJobTask) as a command class: what a Redis worker
 * validates before running it. The stored `request` is then validated by the job's own
 * request DTO (jobCommandOf), as the API validated it.
 */
export class RedisJobCommand implements RedisJobTask {
  @Required()
  @Check(nonEmptyStr)
  jobId!: string;

  @Required()
  @Check(nonEmptyStr)
  orgId!: string;

  @Required()
  @Check(operation)
  operation!: RedisOperation;

  @Required()
  @Check(nonEmptyStr)
  kind!: string;

  @Required()
  @Check(list(inputSource, { minItems: 1 }))
  inputs!: InputSource[];

  @Required()
  @Check(anyObject)
  request!: Record<string, unknown>;

  @Required()
  @Check(nullable(anyObject))
  versions!: unknown;
}

/**
 * Tasks of earlier releases (classify-only; versions inside the request) are read in the
 * current shape first.
 */
function upcast(stored: unknown): unknown {
  if (!isPlainObject(stored) || 'versions' in stored) return stored;
  if ('operation' in stored && !isPlainObject(stored.request)) return stored;
  // Validated right after, field by field, in the current shape.
  return redisJobTaskOf(
    stored as Partial<ClassifyOnlyTask | VersionsInRequestTask> as
      ClassifyOnlyTask | VersionsInRequestTask,
  );
}

/** The BullMQ job name of a Redis job task is its operation: one command type per operation. */
export const REDIS_JOB_COMMANDS = Object.fromEntries(
  JOB_OPERATIONS.map((name) => [name, commandType(name, RedisJobCommand, upcast)]),
) as Record<RedisOperation, CommandType<RedisJobCommand>>;
