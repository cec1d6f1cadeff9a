/** Operations the spec's rollout ratios name (step 7 of the self-hosted upgrade). */
const ROLLOUT_OPERATIONS = ['parse', 'extract', 'split', 'classify', 'edit', 'pipeline'] as const;
export type RolloutOperation = (typeof ROLLOUT_OPERATIONS)[number];
export type RolloutVariant = 'trainable' | 'non_trainable';

/** `classify` / `classify_trainable`: the keys `/rollout` reports. */
export type RolloutKey = `${RolloutOperation}` | `${RolloutOperation}_trainable`;

export function rolloutKey(operation: RolloutOperation, variant: RolloutVariant): RolloutKey {
  return variant === 'trainable' ? `${operation}_trainable` : operation;
}

/** The env variable of a ratio: ROLLOUT_RATIO_CLASSIFY, ROLLOUT_RATIO_CLASSIFY_TRAINABLE, ... */
export function rolloutEnvName(key: RolloutKey): string {
  return `ROLLOUT_RATIO_${key.toUpperCase()}`;
}

export const ALL_ROLLOUT_KEYS: RolloutKey[] = ROLLOUT_OPERATIONS.flatMap((op) => [
  rolloutKey(op, 'non_trainable'),
  rolloutKey(op, 'trainable'),
]);
