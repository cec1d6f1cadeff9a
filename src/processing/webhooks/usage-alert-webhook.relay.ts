import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleDestroy,
  Optional,
} from '@nestjs/common';
import { DuckDbService } from '../../database/duckdb.service.js';
import {
  USAGE_ALERT_DESTINATIONS,
  USAGE_ALERT_OUTBOX,
  type UsageAlertDestinations,
  type UsageAlertNotification,
  type UsageAlertOutbox,
} from '../../usage/usage-alerts.contract.js';
import { WebhooksRepository } from './webhooks.repository.js';
import { WebhooksService } from './webhooks.service.js';

const BATCH = 100;
/** A crossing is handed over when recorded (a listener); this interval is the safety net. */
const SWEEP_INTERVAL_MS = 5_000;

/**
 * Hands crossings of usage alerts from the usage plane's outbox to webhook delivery: each
 * becomes a direct-mode delivery row (signed with the org's webhook secret like every direct
 * webhook, retried with back-off, its attempts listed) in the same transaction that takes it
 * out of the outbox, so a crash loses none and delivers none twice. The delivery id and the
 * `webhook-id` header derive from the crossing's id: a receiver dedupes retries by it.
 */
@Injectable()
export class UsageAlertWebhookRelay implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(UsageAlertWebhookRelay.name);
  private timer: NodeJS.Timeout | null = null;
  private active: Promise<void> | null = null;
  private again = false;
  private running = false;

  constructor(
    private readonly db: DuckDbService,
    private readonly repository: WebhooksRepository,
    private readonly webhooks: WebhooksService,
    @Optional() @Inject(USAGE_ALERT_OUTBOX) private readonly outbox?: UsageAlertOutbox,
    @Optional()
    @Inject(USAGE_ALERT_DESTINATIONS)
    private readonly destinations?: UsageAlertDestinations,
  ) {}

  onApplicationBootstrap(): void {
    // New rules are checked as their crossings will be delivered.
    this.destinations?.checkWith((url) => this.webhooks.destinationRefusal(url));
    if (!this.outbox) return;
    this.running = true;
    this.outbox.onCrossing(() => this.kick());
    this.timer = setInterval(() => this.kick(), SWEEP_INTERVAL_MS);
    this.timer.unref();
    this.kick();
  }

  /** Runs a relay now, or once more after the one in progress. */
  kick(): void {
    if (!this.running) return;
    if (this.active) {
      this.again = true;
      return;
    }
    this.active = this.relay()
      .catch((error: unknown) => {
        this.logger.error({ err: error }, 'handing usage alerts to webhook delivery failed');
      })
      .finally(() => {
        this.active = null;
        if (this.again) {
          this.again = false;
          this.kick();
        }
      });
  }

  private async relay(): Promise<void> {
    const outbox = this.outbox!;
    for (;;) {
      const pending = await outbox.pending(BATCH);
      if (pending.length === 0) return;
      const deliveryIds: string[] = [];
      for (const notification of pending) {
        deliveryIds.push(await this.handOver(outbox, notification));
      }
      await this.webhooks.dispatch(deliveryIds);
      if (pending.length < BATCH) return;
    }
  }

  private async handOver(
    outbox: UsageAlertOutbox,
    notification: UsageAlertNotification,
  ): Promise<string> {
    const deliveryId = `dlv_${notification.firingId}`;
    await this.db.transaction(async (tx) => {
      await this.repository.insertDelivery(tx, {
        deliveryId,
        orgId: notification.orgId,
        // A delivery names what it reports on: the crossing, for a usage alert.
        jobId: notification.firingId,
        mode: 'direct',
        endpointId: null,
        url: notification.webhookUrl,
        messageId: `msg_${notification.firingId}`,
        payload: notification.payload,
        status: 'pending',
        lastError: null,
      });
      await outbox.handedOver(tx, notification.firingId);
    });
    return deliveryId;
  }

  async onModuleDestroy(): Promise<void> {
    this.running = false;
    if (this.timer) clearInterval(this.timer);
    await this.active;
  }
}
