import type { UsageCloudEvent } from '../../src/usage/usage-event.js';
import { usageEvent } from './usage-events.js';

const CATALOG = [
  ['parse', 'parse'],
  ['parse', 'parse_ocr'],
  ['extract', 'deep_extract'],
  ['classify', 'classify'],
  ['split', 'split'],
] as const;

/** Mulberry32: a seeded generator, so a failing run can be replayed. */
export function seeded(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/**
 * `count` valid usage events over `orgIds`, in shuffled time order over the last `days` days,
 * with credits down to the sixth decimal, several keys and file types, async ones carrying
 * metadata; ids are unique per call (prefix).
 */
export function usageEventMix(
  orgIds: string[],
  count: number,
  options: { seed?: number; days?: number; prefix?: string } = {},
): UsageCloudEvent[] {
  const random = seeded(options.seed ?? 7);
  const days = options.days ?? 20;
  const prefix = options.prefix ?? `evt_${Math.floor(random() * 1e9)}`;
  const now = Date.now();
  return Array.from({ length: count }, (_, i) => {
    const [product, feature] = CATALOG[Math.floor(random() * CATALOG.length)];
    const isAsync = random() < 0.4;
    const micros = Math.floor(random() * 50_000_000);
    return usageEvent(
      {
        orgId: orgIds[Math.floor(random() * orgIds.length)],
        apiKeyId: `pk_${Math.floor(random() * 3)}`,
        product,
        feature,
        fileType: ['pdf', 'docx', 'png'][Math.floor(random() * 3)],
        pages: 1 + Math.floor(random() * 9),
        credits: `${Math.floor(micros / 1e6)}.${String(micros % 1e6).padStart(6, '0')}`,
        async: isAsync,
        metadata: isAsync ? { team: ['risk', 'ops'][Math.floor(random() * 2)], n: i % 3 } : null,
      },
      {
        id: `${prefix}_${i}`,
        time: new Date(now - 120_000 - Math.floor(random() * days * 86_400_000)).toISOString(),
      },
    );
  });
}
