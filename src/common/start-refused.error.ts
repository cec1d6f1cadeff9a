/**
 * A start the environment prevents, found while the application starts (a replica with no
 * snapshot to serve): the process exits with the start refusal status and this message on
 * one line, naming what is missing and the setting that provides it. A stack would only
 * hide it.
 */
export class StartRefusedError extends Error {
  override readonly name = 'StartRefusedError';
}
