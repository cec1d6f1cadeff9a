import type { Logger } from '@nestjs/common';
import type { KafkaConfig } from '../../../config/app-config.js';

/** A topic the usage consumer needs, with the setting that names it. */
export interface NeededTopic {
  topic: string;
  setting: 'KAFKA_USAGE_TOPIC' | 'KAFKA_DLQ_TOPIC';
  role: 'usage topic' | 'dead-letter topic';
}

export function neededTopics(config: KafkaConfig): NeededTopic[] {
  return [
    { topic: config.usageTopic, setting: 'KAFKA_USAGE_TOPIC', role: 'usage topic' },
    deadLetterTopicOf(config),
  ];
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
 * The usage consumer's restart delay after a batch held back by a missing topic: every
 * restart rebalances the whole group, and a topic is rarely created within seconds.
 */
export const MISSING_TOPIC_RETRY_MS = 30_000;

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

/**
 * Which of the usage consumer's topics exist on the broker, checked when it starts and
 * with each lag measurement while topic creation is off (or a topic was found missing). A
 * missing topic fails readiness at once with what to do; the log says so once per change.
 */
export class TopicPresence {
  private missingTopics: NeededTopic[] = [];

  constructor(
    private readonly config: () => KafkaConfig,
    private readonly listTopics: () => Promise<string[]>,
    private readonly logger: Logger,
  ) {}

  deadLetterTopic(): NeededTopic {
    return deadLetterTopicOf(this.config());
  }

  get missing(): readonly NeededTopic[] {
    return this.missingTopics;
  }

  isMissing(topic: string): boolean {
    return this.missingTopics.some((m) => m.topic === topic);
  }

  /** Lists the broker's topics (no metadata request for a named topic: that may create it). */
  async check(): Promise<readonly NeededTopic[]> {
    const existing = new Set(await this.listTopics());
    const missing = neededTopics(this.config()).filter((t) => !existing.has(t.topic));
    const before = this.missingTopics;
    this.missingTopics = missing;
    for (const m of missing.filter((t) => !before.some((b) => b.topic === t.topic))) {
      const held =
        m.setting === 'KAFKA_USAGE_TOPIC'
          ? 'usage events are not consumed until it exists'
          : 'a batch with a refused usage event stays uncommitted in the usage topic until it exists (nothing is lost)';
      this.logger.error(`${missingTopicText(m)}; ${held}`);
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

  /** The readiness failure of missing topics, or null when every topic exists. */
  readinessFailure(): { reason: string; missingTopics: string[] } | null {
    if (this.missingTopics.length === 0) return null;
    return {
      reason: this.missingTopics.map(missingTopicText).join('; '),
      missingTopics: this.missingTopics.map((m) => m.topic),
    };
  }
}
