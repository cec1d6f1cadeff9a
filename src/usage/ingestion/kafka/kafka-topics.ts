import type { Logger } from '@nestjs/common';
import type { KafkaConfig } from '../../../config/app-config.js';

/** A topic the usage consumer needs, with the setting that names it. */
export interface NeededTopic {
  topic: string;
  setting: 'KAFKA_USAGE_TOPIC' | 'KAFKA_DLQ_TOPIC';
  role: 'usage topic' | 'dead-letter topic';
}

/** The topics the usage consumer needs: the usage topic and the dead-letter topic. */
export function neededTopics(config: KafkaConfig): NeededTopic[] {
  return [usageTopicOf(config), deadLetterTopicOf(config)];
}

export function usageTopicOf(config: KafkaConfig): NeededTopic {
  return { topic: config.usageTopic, setting: 'KAFKA_USAGE_TOPIC', role: 'usage topic' };
}

export function deadLetterTopicOf(config: KafkaConfig): NeededTopic {
  return { topic: config.deadLetterTopic, setting: 'KAFKA_DLQ_TOPIC', role: 'dead-letter topic' };
}

/** What an operator reads about a missing topic: which one, which setting names it, the fix. */
export function missingTopicText({ topic, setting, role }: NeededTopic): string {
  return (
    `Kafka ${role} "${topic}" (${setting}) does not exist: create it on the broker, ` +
    `or set KAFKA_CREATE_TOPICS=true so docproc creates it at start`
  );
}

/**
 * After a batch held back by a missing topic the consumer stays stopped (each restart would
 * rebalance the whole group to meet the same batch again) and the topic is listed again,
 * first after this long, then twice as long each time up to `MISSING_TOPIC_CHECK_MAX_MS`:
 * the held batch is consumed again within that bound of the topic's creation.
 */
export const MISSING_TOPIC_CHECK_FIRST_MS = 250;
export const MISSING_TOPIC_CHECK_MAX_MS = 5_000;

/** The wait before the next listing of a missing topic, after one of `previousMs`. */
export function nextTopicCheckMs(previousMs: number | null): number {
  if (previousMs === null) return MISSING_TOPIC_CHECK_FIRST_MS;
  return Math.min(previousMs * 2, MISSING_TOPIC_CHECK_MAX_MS);
}

/** A dead-letter send or consumer start that cannot happen because its topic is missing. */
export class MissingTopicError extends Error {
  constructor(
    readonly missing: NeededTopic,
    consequence: string,
    options?: { cause?: unknown },
  ) {
    super(`${missingTopicText(missing)}; ${consequence}`, options);
  }
}

/**
 * Whether kafkajs failed because the broker does not know the topic. A send to a missing
 * topic fails only after kafkajs' retries (about 40 s) with "This server does not host this
 * topic-partition", which names no topic; the protocol error is its cause.
 */
export function isUnknownTopicError(error: unknown): boolean {
  for (let e = error, depth = 0; e && depth < 5; depth++) {
    const { type, cause, originalError } = e as {
      type?: unknown;
      cause?: unknown;
      originalError?: unknown;
    };
    if (type === 'UNKNOWN_TOPIC_OR_PARTITION') return true;
    e = cause ?? originalError;
  }
  return false;
}

/** What the usage consumer holds back while `missing` does not exist. */
function heldBackFromConsumer(missing: NeededTopic): string {
  return missing.setting === 'KAFKA_USAGE_TOPIC'
    ? 'usage events are not consumed until it exists'
    : 'a batch with a refused usage event stays uncommitted in the usage topic until it exists (nothing is lost)';
}

/**
 * Which of the usage consumer's topics (or a publisher's: `needed`) exist on the broker,
 * checked when it starts and with each lag measurement while topic creation is off (or a
 * topic was found missing). A missing topic fails readiness at once with what to do; the
 * log says so once per change.
 */
export class TopicPresence {
  private missingTopics: NeededTopic[] = [];
  private answered = false;
  private wait: NodeJS.Timeout | null = null;

  constructor(
    private readonly config: () => KafkaConfig,
    private readonly listTopics: () => Promise<string[]>,
    private readonly logger: Logger,
    private readonly needed: (config: KafkaConfig) => NeededTopic[] = neededTopics,
    private readonly heldBack: (missing: NeededTopic) => string = heldBackFromConsumer,
  ) {}

  deadLetterTopic(): NeededTopic {
    return deadLetterTopicOf(this.config());
  }

  get missing(): readonly NeededTopic[] {
    return this.missingTopics;
  }

  /** Whether a listing has answered yet: before one, no topic is known to exist. */
  get listed(): boolean {
    return this.answered;
  }

  isMissing(topic: string): boolean {
    return this.missingTopics.some((m) => m.topic === topic);
  }

  /** Lists the broker's topics (no metadata request for a named topic: that may create it). */
  async check(): Promise<readonly NeededTopic[]> {
    const existing = new Set(await this.listTopics());
    this.answered = true;
    const missing = this.needed(this.config()).filter((t) => !existing.has(t.topic));
    const before = this.missingTopics;
    this.missingTopics = missing;
    for (const m of missing.filter((t) => !before.some((b) => b.topic === t.topic))) {
      this.logger.error(`${missingTopicText(m)}; ${this.heldBack(m)}`);
    }
    for (const found of before.filter((b) => !missing.some((t) => t.topic === b.topic))) {
      this.logger.log(`Kafka ${found.role} "${found.topic}" (${found.setting}) exists now`);
    }
    return missing;
  }

  /** Lists the topics again and throws, saying what is held back, when `topic` is missing. */
  async require(topic: string, consequence: string): Promise<void> {
    const missing = (await this.check()).find((m) => m.topic === topic);
    if (missing) throw new MissingTopicError(missing, consequence);
  }

  /**
   * Calls `then` once `topic` exists, listing the topics after each wait of a bounded
   * backoff (nextTopicCheckMs); a listing that fails counts as the topic still missing.
   * One wait at a time; stopWaiting (shutdown) ends it.
   */
  whenPresent(topic: string, then: () => unknown, previousWaitMs: number | null = null): void {
    const waitMs = nextTopicCheckMs(previousWaitMs);
    this.stopWaiting();
    const wait = setTimeout(() => {
      void this.check()
        .then(
          (missing) => missing.some((m) => m.topic === topic),
          () => true,
        )
        .then((stillMissing) => {
          if (this.wait !== wait) return;
          this.wait = null;
          if (stillMissing) this.whenPresent(topic, then, waitMs);
          else then();
        });
    }, waitMs);
    this.wait = wait;
  }

  stopWaiting(): void {
    if (this.wait) clearTimeout(this.wait);
    this.wait = null;
  }

  /** The readiness failure of missing topics, or null when every topic exists. */
  readinessFailure(): { reason: string; missingTopics: string[] } | null {
    if (this.missingTopics.length === 0) return null;
    return {
      reason: this.missingTopics.map(missingTopicText).join('; '),
      missingTopics: this.missingTopics.map((m) => m.topic),
    };
  }
}
