import { KAFKA_SETTINGS } from './settings/kafka.settings.js';
import { OPERATIONS_SETTINGS } from './settings/operations.settings.js';
import { PROCESSING_SETTINGS } from './settings/processing.settings.js';
import { SERVER_SETTINGS } from './settings/server.settings.js';
import { USAGE_SETTINGS } from './settings/usage.settings.js';

/*
 * Every environment variable docproc reads, one entry each, composed here from one file per
 * plane under `settings/`: the tree's shape is the shape of the configuration object
 * (`AppConfig`), so adding a setting is one line in its plane's file.
 * `docs/configuration.md` is generated from these sections (`npm run docs:config`).
 */

export {
  KAFKA_SETTINGS,
  OPERATIONS_SETTINGS,
  PROCESSING_SETTINGS,
  SERVER_SETTINGS,
  USAGE_SETTINGS,
};

/** The sections of the reference, in order. */
export const SETTINGS_SECTIONS = [
  { title: 'Server, storage and auth', settings: SERVER_SETTINGS },
  { title: 'Document processing', settings: PROCESSING_SETTINGS },
  { title: 'Usage analytics', settings: USAGE_SETTINGS },
  { title: 'Kafka mode', settings: KAFKA_SETTINGS },
  { title: 'Operations: admission, workers, Redis queue, rollout', settings: OPERATIONS_SETTINGS },
] as const;
