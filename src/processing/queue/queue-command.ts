import { InvalidCommandError } from '../core/processing-error.js';
import { Check, type Class, Required, validateModel } from '../requests/request-validation.js';
import { nonEmptyStr } from '../requests/field-checkers.js';

/**
 * One unit of queued work (Novu's shape): a kind naming its handler and a payload that is
 * an instance of the kind's command class. Every consumer (a database-queue worker, a Redis
 * worker, the restart reconciler) validates the payload with `validateCommand` before its
 * handler sees it, as the HTTP layer validates a request body: the same class-validator
 * idiom, never a cast of what came off the queue.
 */
export interface QueueCommand<P extends object = object> {
  readonly kind: string;
  readonly payload: P;
}

/** A command kind and the class its payloads validate against. */
export interface CommandType<P extends object = object> {
  readonly kind: string;
  readonly payload: Class<P>;
  /**
   * Reads a payload written by an earlier release in the current shape, before validation
   * (e.g. the classify-only Redis task); absent when every stored payload has one shape.
   */
  readonly upcast?: (stored: unknown) => unknown;
}

export function commandType<P extends object>(
  kind: string,
  payload: Class<P>,
  upcast?: (stored: unknown) => unknown,
): CommandType<P> {
  return { kind, payload, upcast };
}

/** The payload as an instance of the kind's class; InvalidCommandError when it does not fit. */
export function validateCommand<P extends object>(type: CommandType<P>, payload: unknown): P {
  const current = type.upcast ? type.upcast(payload) : payload;
  const { instance, issues } = validateModel(type.payload, current, ['payload']);
  if (!instance) throw new InvalidCommandError(type.kind, issues);
  return instance;
}

/** A command of `type`, validated where it is made (the producer side). */
export function command<P extends object>(type: CommandType<P>, payload: P): QueueCommand<P> {
  return { kind: type.kind, payload: validateCommand(type, payload) };
}

// ---- the payload classes of the database queue ---------------------------------------------

/**
 * Run a stored job (classify, parse, extract or split). The job row is the durable record
 * and carries the request; the command points at it. `operation` lets the routing strategy
 * pick a queue without reading the row; tasks written before it existed have none.
 */
export class RunJobCommand {
  @Required()
  @Check(nonEmptyStr)
  jobId!: string;

  @Check(nonEmptyStr, { optional: true })
  operation?: string;
}

/** Deliver one webhook (a `webhook_deliveries` row, the durable record). */
export class DeliverWebhookCommand {
  @Required()
  @Check(nonEmptyStr)
  deliveryId!: string;
}
