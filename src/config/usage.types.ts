import type { Resolved } from './setting.js';
import type { USAGE_SETTINGS } from './settings.schema.js';

/** Usage-plane rules whose thresholds are settings (settings.schema.ts has each one's default). */
type UsageSettings = Resolved<typeof USAGE_SETTINGS>;

/** Spec "Rules for grouping by async metadata": when a metadata key is identifier-like. */
export type CardinalityRule = UsageSettings['cardinality'];
/** Which usage events the normalizer refuses for their time. */
export type NormalizerPolicy = UsageSettings['normalizer'];
