// Settings are read through the one schema (settings.schema.ts); this module keeps the
// error type and the environment's type where earlier code imports them from.
export { ConfigError, type Env } from './setting.js';
