/**
 * Accepted usage events of one batch as columns, the form the store stages them in.
 *
 * Built where the events are parsed (the normalizer thread, or inline), so the events that
 * wait for their write are a few typed arrays and string arrays instead of one object per
 * event, and cross between threads mostly by transfer. Low-cardinality text (source, org,
 * day, product, feature, API key, file type, metadata keys and values) is interned:
 * code `c` stands for `dictionary[c - 1]` (DuckDB lists are 1-based).
 */
export interface UsageEventColumns {
  readonly length: number;
  readonly dictionary: string[];
  readonly source: Int32Array;
  readonly org: Int32Array;
  readonly day: Int32Array;
  readonly product: Int32Array;
  readonly feature: Int32Array;
  readonly apiKey: Int32Array;
  readonly fileType: Int32Array;
  readonly pages: Int32Array;
  /** `data.version` (1 when absent): a higher one corrects the stored event. */
  readonly version: Int32Array;
  readonly isAsync: Uint8Array;
  /** Combination of the event's groupable metadata entries (0: none). */
  readonly combo: Int32Array;
  readonly eventId: string[];
  /** Event time as epoch milliseconds (the normalizer keeps milliseconds). */
  readonly eventTimeMs: Float64Array;
  /** Credits (DECIMAL(18,6), never negative) as their integer part and millionths. */
  readonly creditsWhole: Float64Array;
  readonly creditsMicros: Int32Array;
  readonly jobId: (string | null)[];
  readonly metadataJson: (string | null)[];
  /** The entries of every combination: one row per (combination, entry). */
  readonly comboEntries: ComboEntries;
}

export interface ComboEntries {
  readonly combo: Int32Array;
  readonly key: Int32Array;
  readonly value: Int32Array;
}
