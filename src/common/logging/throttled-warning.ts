import type { Logger } from '@nestjs/common';

/**
 * One warning line per interval for an error that repeats while its cause lasts (BullMQ
 * reports every reconnect attempt while Redis is down, several a second), with the count of
 * the ones left out since the last line; `/ready` shows the outage itself.
 */
export class ThrottledWarning {
  private lastLoggedAt = Number.NEGATIVE_INFINITY;
  private notLogged = 0;

  constructor(
    private readonly logger: Logger,
    private readonly message: string,
    private readonly intervalMs = 30_000,
    private readonly now: () => number = Date.now,
  ) {}

  warn(error: unknown, fields: Record<string, unknown> = {}): void {
    const now = this.now();
    if (now - this.lastLoggedAt < this.intervalMs) {
      this.notLogged += 1;
      return;
    }
    this.logger.warn(
      { ...fields, err: error, similarErrorsNotLogged: this.notLogged },
      this.message,
    );
    this.lastLoggedAt = now;
    this.notLogged = 0;
  }
}
