import v8 from 'node:v8';

/**
 * Caps how far V8 lets its heap grow past the live size before the next full collection
 * (`--heap-growing-percent`, the `HEAP_GROWING_PERCENT` setting). A busy usage consumer
 * parses tens of thousands of events a second and keeps each batch for the ~0.6 s of its
 * write, so much of that garbage reaches the old generation, and V8's own growth factor
 * lets 100-150 MB of it pile up before collecting. A 20 % step (the default) keeps the heap
 * near its live size for more collections (docs/benchmarks.md, "Kafka ingestion: a tighter
 * heap"). V8 reads the flag whenever it sets the next limit, so it applies from the next
 * collection on. 0 leaves V8's factor alone and calls nothing.
 */
export function applyHeapGrowth(percent: number): void {
  if (percent > 0) v8.setFlagsFromString(`--heap-growing-percent=${percent}`);
}
