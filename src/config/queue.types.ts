/**
 * The queue vocabulary settings are written in (worker queues, lanes, claim filters); the
 * queue contract itself lives in processing and re-exports these.
 */
/** The two queues: `cpu` (decoding, OCR, classification) and `io` (fetches, webhooks). */
export const QUEUES = ['cpu', 'io'] as const;
export type QueueName = (typeof QUEUES)[number];

/** Lanes in the order every worker polls them: priority always before standard, batch last. */
export const LANES = ['priority', 'standard', 'batch'] as const;
export type Lane = (typeof LANES)[number];

export interface ClaimFilter {
  /** Only these lanes (still polled in LANES order). */
  lanes?: readonly Lane[];
  /** `only`: deep work alone (gpu worker); `exclude`: never deep work (the others, when a gpu worker runs). */
  deep?: 'only' | 'exclude';
}
