// The settings live in src/config (one schema for every variable); this re-export keeps the
// processing plane's imports short.
export type { ProcessingConfig } from '../config/processing-config.js';
