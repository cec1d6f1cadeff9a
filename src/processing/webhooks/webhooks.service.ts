import { randomUUID } from 'node:crypto';
import {
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
  OnModuleInit,
  Optional,
} from '@nestjs/common';
import { Webhook } from 'standardwebhooks';
import { ApiError } from '../../common/api-error.js';
import { RequestValidationError } from '../../common/validation-error.js';
import { APP_CONFIG } from '../../config/config.module.js';
import type { AppConfig } from '../../config/app-config.js';
import { DuckDbService, Transaction } from '../../database/duckdb.service.js';
import type { JobRecord } from '../core/job.types.js';
import { decodePageCursor, encodePageCursor } from '../core/list-page.js';
import { command, commandType, DeliverWebhookCommand } from '../queue/queue-command.js';
import { QUEUE, type QueuePort, type QueuedWork, type WorkResult } from '../queue/queue-port.js';
import { LegacyWorkers } from '../queue/db/legacy-workers.service.js';
import { ProcessingMetrics } from '../processing.metrics.js';
import { SafeFetcher } from '../inputs/safe-fetcher.js';
import type { WebhookConfig } from '../requests/shared-fields.dto.js';
import { WebhookAttempt, WebhookDelivery, WebhooksRepository } from './webhooks.repository.js';
import { derivedOrgSecret, randomSecret } from './org-signing-secret.js';
import {
  SHARED_WEBHOOK_ENDPOINTS,
  type SharedWebhookEndpointStore,
  type WebhookEndpointStore,
  WebhookEndpoint,
} from '../../usage/webhook-endpoints.contract.js';

const WEBHOOK_TASK = 'webhook.deliver';
const DELIVER_WEBHOOK = commandType(WEBHOOK_TASK, DeliverWebhookCommand);

/**
 * Webhooks of async jobs: direct (`url`, signed with the org's secret) and hosted (every
 * registered endpoint subscribed to one of the listed channels, all when none are listed;
 * an endpoint without channels receives everything). Deliveries are rows plus io-queue
 * commands, so retries with exponential back-off survive restarts; a delivery that runs out
 * of attempts stays visible as `failed` and is logged as an error. A delivery row commits
 * with its job's outcome and is queued after the commit; at start-up, pending deliveries
 * a crash left without a queued command are queued again.
 */
@Injectable()
export class WebhooksService implements OnModuleInit, OnApplicationBootstrap {
  private readonly logger = new Logger(WebhooksService.name);
  /** Hosted endpoints: the shared store's with USAGE_STORE=clickhouse, else this file's. */
  private readonly endpoints: WebhookEndpointStore;

  constructor(
    @Inject(APP_CONFIG) private readonly config: AppConfig,
    private readonly repository: WebhooksRepository,
    private readonly db: DuckDbService,
    @Inject(QUEUE) private readonly queue: QueuePort,
    private readonly workers: LegacyWorkers,
    private readonly fetcher: SafeFetcher,
    private readonly metrics: ProcessingMetrics,
    @Optional()
    @Inject(SHARED_WEBHOOK_ENDPOINTS)
    private readonly sharedEndpoints?: SharedWebhookEndpointStore | null,
  ) {
    this.endpoints = sharedEndpoints ?? repository;
  }

  onModuleInit(): void {
    if (
      this.config.usage.store.kind === 'clickhouse' &&
      this.config.processing.webhookSigningKey === null
    ) {
      this.logger.warn(
        "USAGE_STORE=clickhouse without WEBHOOK_SIGNING_KEY: each process draws its own webhook signing secrets, so with several processes an org's usage alerts are signed differently by each; set the same WEBHOOK_SIGNING_KEY on every process",
      );
    }
    this.queue.work(DELIVER_WEBHOOK, (work) => this.handle(work), {
      exhausted: (work, reason) => this.exhausted(work, reason),
    });
    this.workers.onStartup({ afterRecovery: () => this.requeueOrphans() });
  }

  /**
   * With the shared store, the endpoints this process's file kept before it was shared are
   * added to it once (never one deleted there since), so switching stores loses none.
   */
  async onApplicationBootstrap(): Promise<void> {
    if (!this.sharedEndpoints) return;
    const adopted = await this.sharedEndpoints.adoptEndpoints(await this.repository.allEndpoints());
    if (adopted > 0) {
      this.logger.log({ count: adopted }, 'hosted webhook endpoints moved to the shared store');
    }
  }

  /** Queues committed deliveries (after their job's outcome committed). */
  async dispatch(deliveryIds: readonly string[]): Promise<void> {
    for (const deliveryId of deliveryIds) {
      try {
        await this.queue.add(command(DELIVER_WEBHOOK, { deliveryId }), {
          queue: 'io',
          lane: 'standard',
          maxAttempts: 3,
        });
      } catch (error) {
        // The row stays pending: the next start queues it again (requeueOrphans).
        this.logger.error({ err: error, deliveryId }, 'could not queue a webhook delivery');
      }
    }
  }

  /** Pending deliveries without a queued command (a crash between commit and add). */
  private async requeueOrphans(): Promise<void> {
    const orphans = await this.repository.pendingWithoutTask(WEBHOOK_TASK);
    if (orphans.length === 0) return;
    this.logger.warn({ count: orphans.length }, 'queuing webhook deliveries left without a task');
    await this.dispatch(orphans);
  }

  // ---- endpoints --------------------------------------------------------------------------

  async createEndpoint(
    orgId: string,
    url: string,
    channels: string[],
    description: string | null,
  ): Promise<WebhookEndpoint> {
    await this.assertDeliverable(['body', 'url'], url);
    const endpoint = {
      endpointId: `ep_${randomUUID()}`,
      orgId,
      url,
      channels,
      secret: randomSecret(),
      description,
    };
    await this.endpoints.insertEndpoint(endpoint);
    return (await this.endpoints.findEndpoint(endpoint.endpointId))!;
  }

  /**
   * A direct webhook's URL, refused at submission (422 naming the field and the reason)
   * when delivery would refuse it, rather than accepted and retried until it fails.
   */
  async assertSubmittable(webhook: WebhookConfig | null | undefined): Promise<void> {
    if (webhook?.mode === 'direct') {
      await this.assertDeliverable(['body', 'async', 'webhook', 'url'], webhook.url);
    }
  }

  /** Why delivery would refuse `url` (its address guard, its resolution), or null. */
  destinationRefusal(url: string): Promise<string | null> {
    return this.fetcher.destinationRefusal(url, this.config.processing.webhookResolveTimeoutMs);
  }

  private async assertDeliverable(loc: string[], url: string): Promise<void> {
    const refusal = await this.destinationRefusal(url);
    if (refusal === null) return;
    throw new RequestValidationError([
      {
        loc,
        msg: `Webhook URL cannot be delivered to: ${refusal}`,
        type: 'url_blocked',
        input: url,
        ctx: { reason: refusal },
      },
    ]);
  }

  listEndpoints(orgId: string): Promise<WebhookEndpoint[]> {
    return this.endpoints.listEndpoints(orgId);
  }

  async deleteEndpoint(orgId: string, endpointId: string): Promise<void> {
    if (!(await this.endpoints.deleteEndpoint(orgId, endpointId))) {
      throw ApiError.notFound('WEBHOOK_ENDPOINT_NOT_FOUND', `No webhook endpoint ${endpointId}`);
    }
  }

  /**
   * The secret direct-mode webhooks (usage alerts among them) of this organization are
   * signed with: derived from WEBHOOK_SIGNING_KEY when set, the same in every process;
   * else one drawn on first use and kept in this process's own DuckDB file.
   */
  async orgSecret(orgId: string): Promise<string> {
    const key = this.config.processing.webhookSigningKey;
    if (key !== null) return derivedOrgSecret(key, orgId);
    return this.repository.orgSecret(orgId, randomSecret());
  }

  /**
   * A page of the organization's deliveries (of one job when `jobId`), newest first, each
   * with every attempt: at most `limit`, after `cursor`; `nextCursor` asks for the rest.
   */
  async deliveries(
    orgId: string,
    page: { jobId: string | null; limit: number; cursor: string | null },
  ): Promise<{
    deliveries: (WebhookDelivery & { attemptLog: WebhookAttempt[] })[];
    nextCursor: string | null;
  }> {
    const after = page.cursor === null ? null : decodePageCursor(page.cursor);
    const rows = await this.repository.listDeliveries(orgId, page.jobId, page.limit + 1, after);
    const listed = rows.slice(0, page.limit);
    const attempts = await this.repository.attemptsOf(listed.map((d) => d.deliveryId));
    const last = listed.at(-1);
    return {
      deliveries: listed.map((d) => ({ ...d, attemptLog: attempts.get(d.deliveryId) ?? [] })),
      nextCursor:
        rows.length > page.limit && last
          ? encodePageCursor({ createdAtMicros: last.createdAtMicros, id: last.deliveryId })
          : null,
    };
  }

  // ---- scheduling (inside the job's completion transaction) -------------------------------

  /** The delivery rows of a finished job; their ids, for `dispatch` once `tx` commits. */
  async scheduleForJob(
    tx: Transaction,
    job: JobRecord,
    status: 'Completed' | 'Failed',
  ): Promise<string[]> {
    const asyncConfig = (job.request.async ?? {}) as { webhook?: WebhookConfig | null };
    const webhook = asyncConfig.webhook;
    if (!job.isAsync || !webhook) return [];
    const payload = JSON.stringify({ status, job_id: job.jobId, metadata: job.metadata ?? null });
    const messageId = `msg_${job.jobId}`;
    const targets: { url: string; endpointId: string | null }[] = [];
    if (webhook.mode === 'direct') {
      targets.push({ url: webhook.url, endpointId: null });
    } else {
      const wanted = webhook.channels;
      for (const endpoint of await this.endpoints.listEndpoints(job.orgId, tx)) {
        const subscribed =
          wanted === undefined ||
          endpoint.channels.length === 0 ||
          endpoint.channels.some((c) => wanted.includes(c));
        if (subscribed) targets.push({ url: endpoint.url, endpointId: endpoint.endpointId });
      }
      if (targets.length === 0) {
        // Recorded rather than dropped: the client can see why nothing arrived.
        await this.repository.insertDelivery(tx, {
          deliveryId: `dlv_${randomUUID()}`,
          orgId: job.orgId,
          jobId: job.jobId,
          mode: 'hosted',
          endpointId: null,
          url: '',
          messageId,
          payload,
          status: 'skipped',
          lastError: 'No webhook endpoint is subscribed to the requested channels',
        });
        this.logger.warn(
          { jobId: job.jobId },
          'hosted webhook requested but no endpoint subscribed',
        );
        return [];
      }
    }
    const scheduled: string[] = [];
    for (const target of targets) {
      const deliveryId = `dlv_${randomUUID()}`;
      await this.repository.insertDelivery(tx, {
        deliveryId,
        orgId: job.orgId,
        jobId: job.jobId,
        mode: webhook.mode === 'direct' ? 'direct' : 'hosted',
        endpointId: target.endpointId,
        url: target.url,
        messageId,
        payload,
        status: 'pending',
        lastError: null,
      });
      scheduled.push(deliveryId);
    }
    return scheduled;
  }

  // ---- delivery (io queue task) -----------------------------------------------------------

  /** One attempt; a failed one that has attempts left asks the queue for a retry. */
  async handle(work: QueuedWork<DeliverWebhookCommand>): Promise<WorkResult> {
    const delivery = await this.repository.findDelivery(work.payload.deliveryId);
    if (!delivery || delivery.status !== 'pending') return;
    const secret =
      delivery.endpointId === null
        ? await this.orgSecret(delivery.orgId)
        : (await this.endpoints.findEndpoint(delivery.endpointId))?.secret;
    const attemptNo = delivery.attempts + 1;
    const started = Date.now();
    let statusCode: number | null = null;
    let error: string | null = null;
    if (!secret) {
      error = 'The webhook endpoint was deleted';
    } else {
      const timestamp = new Date();
      const signature = new Webhook(secret).sign(delivery.messageId, timestamp, delivery.payload);
      try {
        const response = await this.fetcher.post(
          delivery.url,
          delivery.payload,
          {
            'content-type': 'application/json',
            'webhook-id': delivery.messageId,
            'webhook-timestamp': String(Math.floor(timestamp.getTime() / 1000)),
            'webhook-signature': signature,
          },
          this.config.processing.webhookTimeoutMs,
        );
        statusCode = response.statusCode;
        if (statusCode < 200 || statusCode >= 300) error = `HTTP ${statusCode}`;
      } catch (e) {
        error = e instanceof Error ? e.message : String(e);
      }
    }
    const attempt: WebhookAttempt = {
      attempt: attemptNo,
      attemptedAt: new Date(started),
      statusCode,
      error,
      durationMs: Date.now() - started,
    };
    const { webhookMaxAttempts, webhookRetryBaseMs, webhookRetryMaxMs } = this.config.processing;
    const permanent = secret === undefined;
    if (error === null) {
      this.metrics.deliveryAttempted('delivered', attempt.durationMs);
      await this.db.transaction((tx) =>
        this.repository.recordAttempt(tx, delivery.deliveryId, attempt, 'delivered', null),
      );
      return;
    }
    if (attemptNo >= webhookMaxAttempts || permanent) {
      this.metrics.deliveryAttempted('failed', attempt.durationMs);
      this.logger.error(
        {
          deliveryId: delivery.deliveryId,
          jobId: delivery.jobId,
          url: delivery.url,
          attempts: attemptNo,
          error,
        },
        'webhook delivery failed permanently',
      );
      await this.db.transaction((tx) =>
        this.repository.recordAttempt(tx, delivery.deliveryId, attempt, 'failed', null),
      );
      return;
    }
    const delay = Math.min(webhookRetryMaxMs, webhookRetryBaseMs * 2 ** (attemptNo - 1));
    const retryAt = new Date(Date.now() + delay);
    this.metrics.deliveryAttempted('retrying', attempt.durationMs);
    this.logger.warn(
      { deliveryId: delivery.deliveryId, attempt: attemptNo, error, retryAt },
      'webhook delivery failed; retrying',
    );
    await this.db.transaction((tx) =>
      this.repository.recordAttempt(tx, delivery.deliveryId, attempt, 'pending', retryAt),
    );
    return { retryAt, error };
  }

  async exhausted(work: QueuedWork<DeliverWebhookCommand>, reason: string): Promise<void> {
    this.logger.error(
      { deliveryId: work.payload.deliveryId, reason },
      'webhook delivery task gave up',
    );
  }
}
