import {
  BeforeApplicationShutdown,
  Inject,
  Injectable,
  Logger,
  OnApplicationBootstrap,
} from '@nestjs/common';
import type { Consumer, EachBatchPayload } from 'kafkajs';
import type { AppConfig, KafkaConfig } from '../../../config/app-config.js';
import { APP_CONFIG } from '../../../config/config.module.js';
import { MetricsService } from '../../../common/metrics/metrics.service.js';
import {
  ReadinessCheck,
  ReadinessReport,
  ReadinessService,
} from '../../../common/health/readiness.service.js';
import { UsageIngestService } from '../usage-ingest.service.js';
import type { WriteOwnership } from '../../core/usage-store.ports.js';
import { OrderedCommits } from './ordered-commits.js';
import { ConsumerProgress, topicAndGroupOffsets } from './consumer-progress.js';
import { type DeadLetterTarget, refusedMessages, sendDeadLetters } from './dead-letter.js';
import { usageConsumerOptions } from './kafka-client.js';
import { KafkaClients } from './kafka-clients.service.js';
import { MissingTopicError, TopicPresence } from './kafka-topics.js';
import { usageConsumerMetrics, type UsageConsumerMetrics } from './usage-consumer.metrics.js';
import { ConsumerPause, pauseWhileStorageLow } from './consumer-pause.js';
import { StorageReserve } from '../../../database/storage-reserve.js';

const START_RETRY_MS = 2_000;

/**
 * Events fetched but not yet committed, at most, in the store's writes: enough for the next
 * fetches to queue up behind a running write (and so merge into one write as large as the
 * store takes), bounded for memory.
 */
const UNCOMMITTED_WRITES = 2;

/**
 * The Kafka half of usage ingestion: consumer group `docproc-usage-ingest` on
 * `docproc.usage.v1`, in the process that owns the DuckDB file.
 *
 * Per fetched batch (one partition): the shared ingestion path validates it and queues its
 * events for the DuckDB writer (group commit: batches queued while a write runs share the
 * next transaction). The handler then moves the fetch position on and returns, so the next
 * fetch is parsed while the write runs; the batch's follow-up waits in `OrderedCommits`:
 * after its write and every earlier batch of its partition, the refused messages go to the
 * dead-letter topic (acknowledgement awaited), and only then is `offset + 1` committed.
 * A failed write or dead-letter send restarts the consumer from the committed offsets:
 * nothing is skipped. A redelivered batch is harmless because the store dedupes on
 * (source, id); a crash between the DuckDB commit and the offset commit therefore costs a
 * redelivery, never a double count.
 */
@Injectable()
export class UsageKafkaConsumer
  implements OnApplicationBootstrap, BeforeApplicationShutdown, ReadinessCheck
{
  readonly name = 'usageConsumer';
  private readonly logger = new Logger(UsageKafkaConsumer.name);
  private consumer: Consumer | null = null;
  /** The current consumer's batches between fetch and offset commit. */
  private commits: OrderedCommits | null = null;
  /** Batch handlers running (shutdown waits for them before the last commits). */
  private handling = 0;
  private progress: ConsumerProgress | null = null;
  private lagTimer: NodeJS.Timeout | null = null;
  private startTimer: NodeJS.Timeout | null = null;
  private shuttingDown = false;
  /** Paused on purpose (operations, tests, a full data volume): not a stall to repair. */
  private readonly pauses = new ConsumerPause(
    () => this.config.usageTopic,
    (error) => this.logger.debug(`usage consumer paused at its next join: ${String(error)}`),
  );
  /**
   * Bumped at each rebalance (REBALANCING, GROUP_JOIN): a batch fetched before may belong to
   * another member now, and kafkajs fetches again from the committed offsets after a join,
   * so it is neither stored after the fence nor committed (docs/decisions/0375-*).
   */
  private membership = 0;
  private meters!: UsageConsumerMetrics;
  private readonly topics = new TopicPresence(
    () => this.config,
    async () => (await this.clients.admin()).listTopics(),
    this.logger,
  );
  private readonly deadLetters: DeadLetterTarget = {
    producer: () => this.clients.producer(),
    presence: this.topics,
  };

  constructor(
    @Inject(APP_CONFIG) private readonly appConfig: AppConfig,
    private readonly clients: KafkaClients,
    private readonly ingest: UsageIngestService,
    private readonly readinessService: ReadinessService,
    private readonly metrics: MetricsService,
    private readonly storage: StorageReserve,
  ) {}

  private get config(): KafkaConfig {
    return this.clients.config;
  }

  onApplicationBootstrap(): void {
    if (!this.appConfig.kafka || !this.appConfig.kafka.consumerEnabled) return;
    // The consumer's metrics exist only where it consumes (Kafka mode): no idle gauges.
    this.meters = usageConsumerMetrics(this.metrics, () => this.progress);
    // A usage store in ClickHouse does not write to the data volume: not paused for it.
    if (this.appConfig.usage.store.kind === 'duckdb') {
      pauseWhileStorageLow(this.pauses, this.storage, () => this.consumer, this.meters.paused);
    }
    this.progress = new ConsumerProgress(this.config.stallTimeoutMs);
    this.readinessService.register(this);
    this.lagTimer = setInterval(() => void this.measureLag(), this.config.lagIntervalMs);
    this.lagTimer.unref();
    // Started in the background: the export API serves while the broker is unreachable,
    // and /ready says why ingestion is not happening.
    void this.startUntilRunning();
  }

  readiness(): ReadinessReport {
    if (!this.progress) return { ready: true, detail: { state: 'disabled' } };
    const report = this.progress.readiness();
    const missingTopics = this.topics.readinessFailure();
    if (missingTopics)
      Object.assign(report, { ready: false, detail: { ...report.detail, ...missingTopics } });
    this.meters.ready.set(report.ready ? 1 : 0);
    if (!this.pauses.has('storage')) return report;
    const reason = 'paused: free disk space below DATA_DIR_MIN_FREE_MB';
    return { ready: false, detail: { ...report.detail, reason, pausedFor: this.pauses.held } };
  }

  /** Stops fetching (operations, tests); offsets stay where they are. */
  pause(): void {
    this.pauses.hold('requested', this.consumer);
  }

  resume(): void {
    this.pauses.release('requested', this.consumer);
  }

  private async startUntilRunning(): Promise<void> {
    try {
      await this.start();
    } catch (error) {
      if (this.shuttingDown) return;
      this.progress?.onBatchFailed(error);
      // A missing topic was logged once when found missing; not again at each retry.
      if (!(error instanceof MissingTopicError)) {
        this.logger.error(
          `usage consumer could not start, retrying in ${START_RETRY_MS} ms: ${String(error)}`,
        );
      }
      const consumer = this.consumer;
      this.consumer = null;
      await consumer?.disconnect().catch(() => undefined);
      this.startTimer = setTimeout(() => void this.startUntilRunning(), START_RETRY_MS);
    }
  }

  private async start(): Promise<void> {
    const config = this.config;
    this.ingest.prepareForRawBatches();
    if (config.createTopics) await this.clients.ensureTopics();
    await this.topics.require(config.usageTopic, 'the consumer starts once it exists');
    const consumer = this.clients.kafka().consumer(usageConsumerOptions(config));
    this.consumer = consumer;
    this.commits = new OrderedCommits(UNCOMMITTED_WRITES * this.ingest.maxEventsPerWrite, (error) =>
      this.restartAfter(consumer, error),
    );
    this.instrument(consumer);
    await consumer.connect();
    // A new group starts at the earliest offset: nothing published before it is missed.
    await consumer.subscribe({ topics: [config.usageTopic], fromBeginning: true });
    await consumer.run({
      eachBatchAutoResolve: false,
      // Offsets are committed by the batches' chain, each after its write (OrderedCommits).
      autoCommit: false,
      partitionsConsumedConcurrently: config.consumer.partitionsConsumedConcurrently,
      eachBatch: (payload) => this.handleBatch(consumer, payload),
    });
    this.logger.log(
      `usage consumer started: group ${config.consumerGroup}, topic ${config.usageTopic}`,
    );
  }

  /**
   * Feeds the current consumer's events into the progress and metrics. A consumer this
   * process has replaced (or is shutting down) is not the current one: kafkajs can still
   * bring it back, because a crash while it disconnects (its in-flight fetch fails) makes
   * kafkajs schedule a restart with a new group membership. Such a consumer would own
   * partitions of the group unseen (not paused, not in the readiness lag, fencing the
   * current consumer's writes at each of its joins): it is disconnected again instead.
   */
  private instrument(consumer: Consumer): void {
    const { GROUP_JOIN, REBALANCING, FETCH, CRASH, STOP } = consumer.events;
    const current = () => this.consumer === consumer && !this.shuttingDown;
    consumer.on(GROUP_JOIN, (event) => {
      if (!current()) return;
      this.meters.rebalances.inc();
      this.membership++;
      this.pauses.apply(consumer);
      const partitions = event.payload.memberAssignment[this.config.usageTopic] ?? [];
      this.ingest.partitionsReassigned(partitions.map((p) => `${this.config.usageTopic}:${p}`));
      this.progress?.onGroupJoin(partitions);
      this.logger.log(`usage consumer joined group; partitions [${partitions.join(', ')}]`);
    });
    consumer.on(REBALANCING, () => {
      if (!current()) return;
      this.membership++;
      this.progress?.onRebalancing();
    });
    consumer.on(FETCH, () => {
      // A replaced consumer fetching: a restart slipped through; inside its fetch loop a
      // disconnect stops it for good.
      if (current()) this.progress?.onFetch();
      else if (this.consumer !== consumer) this.retire(consumer);
    });
    consumer.on(CRASH, (event) => {
      this.meters.crashes.inc();
      const { error, restart } = event.payload;
      if (!current()) {
        // kafkajs sets its restart timer right after this event; the disconnect clears it.
        if (restart) setImmediate(() => this.retire(consumer));
        return;
      }
      // kafkajs restarts its consumer only after a retriable error. After any other one it
      // leaves it stopped for good (e.g. "Failed to find group coordinator" when a broker
      // restart closes the connection between connect and join), and usage would not be
      // ingested again until the process restarts: a new consumer takes its place instead.
      const replaced = !restart && this.replace(consumer);
      this.progress?.onCrash(error, restart || replaced);
      const next = restart ? 'kafkajs restarts it' : replaced ? 'replacing it' : 'not restarting';
      this.logger.error(`usage consumer crashed (${next}): ${error.message}`);
    });
    consumer.on(STOP, () => {
      // A consumer being replaced stops on purpose; its successor reports for itself.
      if (current()) this.progress?.onStop();
    });
  }

  /** Disconnects a consumer that is no longer the current one (idempotent in kafkajs). */
  private retire(consumer: Consumer): void {
    void consumer.disconnect().catch(() => undefined);
  }

  /** A batch of `consumer`; one fetched by a consumer that was replaced since is dropped. */
  private async handleBatch(
    consumer: Consumer,
    { batch, resolveOffset, heartbeat, isRunning, isStale }: EachBatchPayload,
  ): Promise<void> {
    const commits = this.commits;
    if (!commits || consumer !== this.consumer) return;
    if (!isRunning() || isStale() || batch.messages.length === 0) return;
    const { topic, partition, messages } = batch;
    this.handling++;
    try {
      const ownership = this.ownership(consumer, `${topic}:${partition}`);
      const submitted = await this.ingest.submit(
        messages.map((m) => m.value),
        new Date(),
        'refuse',
        ownership,
      );
      const last = messages[messages.length - 1].offset;
      const refused = refusedMessages(messages, submitted.rejected);
      const { written } = submitted;
      commits.add(partition, messages.length, written, async () => {
        // Fetched before a rebalance, or fenced off by one: the partition's owner fetches it
        // again from the committed offset (fenced off without a rebalance here: restart).
        if ((await written).superseded || ownership.lost()) {
          if (!ownership.lost()) throw new Error(`write of ${topic}[${partition}] fenced off`);
          this.meters.batches.inc({ outcome: 'superseded' });
          return;
        }
        if (refused.length > 0) {
          // Awaited: the broker acknowledged every dead letter before any offset moves.
          const source = { topic, partition };
          await sendDeadLetters(this.deadLetters, source, refused);
          for (const { rejection } of refused)
            this.meters.deadLettered.inc({ reason: rejection.reason });
        }
        const next = String(Number(last) + 1);
        await consumer.commitOffsets([{ topic, partition, offset: next }]).catch((error) => {
          // A lost commit costs a redelivery, which the store dedupes; not a failure.
          this.logger.warn(`usage offset commit ${topic}[${partition}]@${next}: ${String(error)}`);
        });
        this.meters.batches.inc({ outcome: 'ok' });
        this.progress?.onBatchWritten(partition, Number(next));
      });
      // The fetch position moves on now (autoCommit is off: nothing is committed by
      // kafkajs); the next fetch is parsed while this batch's write runs.
      resolveOffset(last);
      await heartbeat();
      await commits.room();
    } catch (error) {
      // Before resolveOffset: kafkajs retries the batch. After it (heartbeat): the batch is
      // in the chain already, whose own failure handling rewinds.
      this.progress?.onBatchFailed(error);
      throw error;
    } finally {
      this.handling--;
    }
  }

  /** Lost once this process rebalanced or replaced `consumer` after the batch was fetched. */
  private ownership(consumer: Consumer, source: string): WriteOwnership {
    const at = this.membership;
    return { sources: [source], lost: () => this.membership !== at || this.consumer !== consumer };
  }

  /**
   * A batch's write or dead letters failed after its fetch position had moved on: the
   * consumer is restarted, so it fetches again from the committed offsets (the later
   * batches of the failed one's partition were never committed).
   */
  private restartAfter(failed: Consumer, error: unknown): void {
    this.meters.batches.inc({ outcome: 'error' });
    this.progress?.onBatchFailed(error);
    const missingTopic = error instanceof MissingTopicError ? error.missing.topic : null;
    if (this.replace(failed, missingTopic)) {
      const what = missingTopic ? 'not committed' : 'not written';
      this.logger.error(
        `usage batch ${what}; the consumer restarts from the committed offsets${missingTopic ? ' once the topic exists' : ''}: ${String(error)}`,
      );
    }
  }

  /**
   * Disconnects `failed` and starts a new consumer (fresh chain of commits, from the committed
   * offsets) after START_RETRY_MS, or once `awaitedTopic` exists (a restart before would
   * meet the same batch). False when `failed` is not current or the process shuts down.
   */
  private replace(failed: Consumer, awaitedTopic: string | null = null): boolean {
    if (this.shuttingDown || this.consumer !== failed) return false;
    this.consumer = null;
    this.commits = null;
    void failed
      .disconnect()
      .catch(() => undefined)
      .then(() => {
        if (this.shuttingDown) return;
        if (awaitedTopic !== null)
          this.topics.whenPresent(awaitedTopic, () => this.startUntilRunning());
        else this.startTimer = setTimeout(() => void this.startUntilRunning(), START_RETRY_MS);
      });
    return true;
  }

  private async measureLag(): Promise<void> {
    const progress = this.progress;
    if (!progress || this.shuttingDown) return;
    try {
      const { usageTopic, consumerGroup, createTopics } = this.config;
      // With topic creation off, a topic deleted or created since is noticed here.
      if (!createTopics || this.topics.missing.length > 0) await this.topics.check();
      if (this.topics.isMissing(usageTopic)) return void this.readiness();
      const { high, committed } = await topicAndGroupOffsets(
        await this.clients.admin(),
        usageTopic,
        consumerGroup,
      );
      for (const p of progress.onLagMeasured(high, committed)) {
        this.meters.lag.set({ topic: usageTopic, partition: String(p.partition) }, p.lag);
      }
    } catch (error) {
      progress.onLagUnmeasurable();
      this.logger.warn(`could not measure usage consumer lag: ${String(error)}`);
    }
    this.replaceIfStalled(progress);
    this.readiness();
  }

  private replaceIfStalled(progress: ConsumerProgress): void {
    const consumer = this.consumer;
    if (this.pauses.active || !consumer || !progress.stalled()) return;
    if (!this.replace(consumer)) return;
    progress.onReplaced();
    this.logger.error(
      `usage consumer made no progress for ${this.config.stallTimeoutMs} ms with ${progress.ownLag()} events of lag and fetched nothing; replacing it`,
    );
  }

  async beforeApplicationShutdown(): Promise<void> {
    this.shuttingDown = true;
    if (this.lagTimer) clearInterval(this.lagTimer);
    if (this.startTimer) clearTimeout(this.startTimer);
    this.topics.stopWaiting();
    this.readinessService.unregister(this.name);
    // No new batches; the ones in hand finish their writes and commit (kafkajs commits
    // only while its consumer runs), so DuckDB is not closed under a write.
    this.pause();
    while (this.handling > 0 || (this.commits?.pending ?? 0) > 0) {
      await this.commits?.settled();
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await this.consumer?.disconnect().catch((error: unknown) => {
      this.logger.warn(`usage consumer disconnect failed: ${String(error)}`);
    });
  }
}
