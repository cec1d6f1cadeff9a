/** Which usage an alert counts: all of the org's, one product's, or one metadata value's. */
export interface AlertScope {
  product: string | null;
  metadataKey: string | null;
  metadataValue: string | null;
}

/** A period's totals of a scope, read from the usage store's rollups. */
export interface PeriodTotals {
  /** Exact decimal text. */
  credits: string;
  requests: number;
}
