/** Injection token of the `AppConfig`; a file of its own so plain code can name it without Nest. */
export const APP_CONFIG = Symbol('APP_CONFIG');
