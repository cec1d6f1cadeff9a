import type { Resolved } from './setting.js';
import type { PROCESSING_SETTINGS } from './settings.schema.js';

/** Settings of the processing plane (jobs, queues, uploads, fetches, webhooks, outbox). */
export type ProcessingConfig = Resolved<typeof PROCESSING_SETTINGS>;
