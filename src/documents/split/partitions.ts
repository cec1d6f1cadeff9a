/**
 * A section's partitions (its `partition_key`): consecutive pages with the same value of the
 * key's label.
 */
import { collectEvidence } from '../extract/document-evidence.js';
import { labelVariants, similarity } from '../extract/text-match.js';
import type { LayoutDocument } from '../parse/layout.types.js';

/** The partition value of each page: the value of the `partition_key` label on it. */
export function partitionValues(document: LayoutDocument, key: string): Map<number, string> {
  const labels = labelVariants(key);
  const values = new Map<number, string>();
  for (const page of document.pages) {
    const evidence = collectEvidence({ ...document, pages: [page] });
    const kv = evidence.keyValues.find((pair) =>
      labels.some(
        (label) =>
          pair.normalizedLabel === label || similarity(pair.normalizedLabel, label) >= 0.85,
      ),
    );
    if (kv && kv.value.trim() !== '') values.set(page.pageNumber, kv.value.trim());
  }
  return values;
}

/** Consecutive pages with the same value (pages without one continue the last). */
export function partitionPages(
  pages: number[],
  values: Map<number, string>,
): { name: string; pages: number[] }[] {
  const partitions: { name: string; pages: number[] }[] = [];
  for (const page of pages) {
    const value = values.get(page);
    const last = partitions.at(-1);
    if (last && (value === undefined || value === last.name)) last.pages.push(page);
    else partitions.push({ name: value ?? 'unknown', pages: [page] });
  }
  return partitions;
}
