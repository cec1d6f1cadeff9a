/**
 * Trials of lexical evidence across languages read through the sentence encoder (record
 * 0513) on word-bridge-dump.ts's output: a statement's stem counts as found in a document of
 * another language when one of the document's most frequent content words, embedded alone,
 * lies near the statement's word embedded alone. The found counts feed the service's own
 * lexicalMatch (BM25 saturation, category-frequency weights) and a share of the document's
 * words bridged to the request's stands in for record 0444's requestShare; the scores,
 * Deep Classify's second pass and the choice are the service's own functions.
 * Each family's parameters are also chosen by cross-validation: five folds by document, the
 * setting with most rows right on four folds (ties: the smaller weight; today's rule when no
 * setting beats it) scores the fifth; "keeping cells" chooses only among the settings that
 * keep every cell of the four training folds at or above today's.
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/word-bridge-trial.js <file>
 *      [--families 0,4] [--limit N] [--coverage c] [--settings f:t:w:N:c,...]
 *      [--diff f:t:w:N:c]
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import { chooseCategory } from '../../src/documents/classify/confidence.js';
import { keysOf, type CategoryEvidence } from '../../src/documents/classify/evidence.js';
import { categoryScore, strength } from '../../src/documents/classify/fusion.js';
import { lexicalMatch, type TermBag } from '../../src/documents/classify/lexical.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import type { BridgeDump, BridgeRow } from './word-bridge-dump.js';

const file = process.argv[2];
if (!file) process.exit(2);
const dump = JSON.parse(fs.readFileSync(`${file}.json`, 'utf8')) as BridgeDump;
const raw = fs.readFileSync(`${file}.f32`);
const all = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
const wordAt = new Map(dump.words.map((w, i) => [w, i]));
const vectorOf = (word: string) => {
  const i = wordAt.get(word);
  return i === undefined ? undefined : all.subarray(i * 512, i * 512 + 512);
};
const dot = (a: Float32Array, b: Float32Array) => {
  let sum = 0;
  for (let i = 0; i < 512; i++) sum += a[i] * b[i];
  return sum;
};

/** Per request key, what the rules read of its cosines with the document's first stems. */
interface KeyMatches {
  best: number;
  value: number;
  /** Whether no other request key is nearer the best stem. */
  mutual: boolean;
  /** Stems at cosine 0.5 or more: [stem, cosine]. */
  near: [number, number][];
}

/** A rule: which document stems count for a request key, [stem index, credit 0..1][]. */
interface Family {
  name: string;
  thresholds: number[];
  found: (key: KeyMatches, t: number) => [number, number][];
  /** Also documents in the criteria's language (soft matches beside exact ones). */
  sameLanguage?: boolean;
}

const bestAt = (key: KeyMatches, t: number): [number, number][] =>
  key.best >= 0 && key.value >= t ? [[key.best, 1]] : [];
const FAMILIES: Family[] = [
  {
    name: 'best stem at cosine >= t',
    thresholds: [0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9],
    found: bestAt,
  },
  {
    name: 'every stem at cosine >= t',
    thresholds: [0.55, 0.6, 0.65, 0.7, 0.75, 0.8, 0.85, 0.9],
    found: (key, t) => key.near.filter(([, c]) => c >= t).map(([s]) => [s, 1]),
  },
  {
    name: 'mutual nearest neighbours at cosine >= t',
    thresholds: [0.3, 0.4, 0.5, 0.55, 0.6, 0.65, 0.7, 0.75, 0.8],
    found: (key, t) => (key.mutual ? bestAt(key, t) : []),
  },
  {
    name: 'best stem, credit (cos - t) / (1 - t)',
    thresholds: [0.3, 0.4, 0.5, 0.6, 0.7],
    found: (key, t) =>
      key.best >= 0 && key.value > t ? [[key.best, (key.value - t) / (1 - t)]] : [],
  },
  {
    name: 'same language too: best stem at cosine >= t',
    thresholds: [0.7, 0.75, 0.8, 0.85, 0.9],
    sameLanguage: true,
    found: bestAt,
  },
  {
    name: 'mutual nearest neighbours, credit (cos - t) / (1 - t)',
    thresholds: [0.3, 0.4, 0.5, 0.6],
    found: (key, t) => (key.mutual && key.value > t ? [[key.best, (key.value - t) / (1 - t)]] : []),
  },
  {
    name: 'same language too: best stem, credit (cos - t) / (1 - t)',
    thresholds: [0.5, 0.6, 0.7],
    sameLanguage: true,
    found: (key, t) =>
      key.best >= 0 && key.value > t ? [[key.best, (key.value - t) / (1 - t)]] : [],
  },
  {
    name: 'same language too: mutual nearest neighbours at cosine >= t',
    thresholds: [0.6, 0.7, 0.75, 0.8],
    sameLanguage: true,
    found: (key, t) => (key.mutual ? bestAt(key, t) : []),
  },
];
const WEIGHTS = [0.1, 0.2, 0.3, 0.5, 0.7, 1];
const argOf = (name: string) =>
  process.argv.includes(name) ? process.argv[process.argv.indexOf(name) + 1] : undefined;
/** `--coverage 0.05` / `--limit 200` fix those instead of fitting them. */
const COVERAGES = argOf('--coverage') ? [Number(argOf('--coverage'))] : [0.05, 0.1];
const LIMITS = argOf('--limit') ? [Number(argOf('--limit'))] : [100, 200, 400];
const onlyFamilies = process.argv.includes('--families')
  ? process.argv[process.argv.indexOf('--families') + 1].split(',').map(Number)
  : undefined;

/** Per (schema, row, limit): the request's keys and each key's matches among the stems. */
interface Prepared {
  keys: ReturnType<typeof keysOf>;
  keyList: string[];
  matches: KeyMatches[];
  stems: { key: string; word: string; count: number }[];
}
const keyCache = new Map<string, ReturnType<typeof keysOf>>();
const cosCache = new Map<string, Prepared>();
function prepare(row: BridgeRow, limit: number): Prepared {
  const schemaKey = `${row.set}/${row.variant}`;
  let keys = keyCache.get(schemaKey);
  if (!keys) {
    keys = keysOf(dump.texts[schemaKey]);
    keyCache.set(schemaKey, keys);
  }
  const cacheKey = `${schemaKey}|${row.id}|${limit}`;
  const cached = cosCache.get(cacheKey);
  if (cached) return cached;
  // A key's word: the first word it was read from in the request.
  const wordOfKey = new Map<string, string>();
  for (const { key, word } of keys.terms.flat(2)) if (!wordOfKey.has(key)) wordOfKey.set(key, word);
  const keyList = [...wordOfKey.keys()];
  const stems = (dump.stems[row.id] ?? []).slice(0, limit);
  const stemVectors = stems.map((s) => vectorOf(s.word));
  const cos = keyList.map((key) => {
    const v = vectorOf(wordOfKey.get(key) ?? '');
    return stemVectors.map((w) => (v && w ? dot(v, w) : 0));
  });
  const nearest = stems.map((_, s) => {
    let best = -Infinity;
    for (const row of cos) best = Math.max(best, row[s]);
    return best;
  });
  const matches = cos.map((values): KeyMatches => {
    let best = -1;
    let value = -Infinity;
    values.forEach((c, s) => {
      if (c > value) [best, value] = [s, c];
    });
    return {
      best,
      value,
      mutual: best >= 0 && nearest[best] <= value,
      near: values.flatMap((c, s): [number, number][] => (c >= 0.5 ? [[s, c]] : [])),
    };
  });
  const prepared = { keys, keyList, matches, stems };
  cosCache.set(cacheKey, prepared);
  return prepared;
}

interface Setting {
  family: number;
  t: number;
  w: number;
  limit: number;
  coverage: number;
}

/** Lexical evidence of every statement under `setting`, or undefined where today's stands. */
function bridged(row: BridgeRow, setting: Setting): number[][] | undefined {
  const family = FAMILIES[setting.family];
  const prepared = prepare(row, setting.limit);
  const same = row.language === prepared.keys.language;
  if (same && !family.sameLanguage) return undefined;
  const counts = new Map<string, number>();
  const used = new Set<number>();
  prepared.keyList.forEach((key, r) => {
    const hits = family.found(prepared.matches[r], setting.t);
    let count = 0;
    for (const [s, credit] of hits) {
      count += credit * prepared.stems[s].count;
      used.add(s);
    }
    if (count > 0) counts.set(key, count);
  });
  let share = 0;
  for (const s of used) share += prepared.stems[s].count;
  share = row.bagLength > 0 ? Math.min(1, share / row.bagLength) : 0;
  const factor = Math.min(1, share / setting.coverage);
  const bag: TermBag = { counts, length: row.bagLength };
  const length = Math.max(1, row.bagLength / Math.max(1, row.pageCount));
  return prepared.keys.keys.map((group, c) =>
    group.map((statement, i) => {
      const soft = setting.w * factor * lexicalMatch(statement, bag, length);
      if (!same) return soft;
      // Same language: the soft match may only add to today's exact evidence.
      const today =
        i === 0 ? row.evidence[c].label.lexical : row.evidence[c].criteria[i - 1].lexical;
      return Math.max(today, soft);
    }),
  );
}

function choose(row: BridgeRow, evidence: CategoryEvidence[]): number {
  const texts = dump.texts[`${row.set}/${row.variant}`];
  let scores = evidence.map((category) => ({
    score: categoryScore(category),
    criteria: category.criteria.map((criterion) => strength(criterion)),
  }));
  if (row.model === 'accurate') {
    const schema = texts.map(([category, ...criteria]) => ({ category, criteria }));
    scores = separateNeighbours(schema, evidence, scores);
  }
  return chooseCategory(
    scores,
    texts.map(([name]) => name),
  );
}

function rightUnder(row: BridgeRow, setting?: Setting, today?: boolean): boolean {
  const lexical = setting ? bridged(row, setting) : undefined;
  if (setting && !lexical && today !== undefined) return today;
  const evidence = lexical
    ? row.evidence.map((category, c) => ({
        ...category,
        label: { ...category.label, lexical: lexical[c][0] },
        criteria: category.criteria.map((criterion, i) => ({
          ...criterion,
          lexical: lexical[c][i + 1],
        })),
      }))
    : row.evidence;
  return choose(row, evidence) === row.expected;
}

const cellOf = (row: BridgeRow) => `${row.set}/${row.variant}/${row.model}`;
const documentOf = (row: BridgeRow) => row.id.replace(/^[^/]+\/[^/]+\//, `${row.set}/`);
const foldOf = (row: BridgeRow) =>
  crypto.createHash('sha256').update(documentOf(row)).digest()[0] % 5;
const foreign = (row: BridgeRow) => (row.manifestLanguage ?? row.language) !== 'en';
const cells = [...new Set(dump.rows.map(cellOf))];
const pairs = [...new Set(cells.map((cell) => cell.replace(/\/(default|accurate)$/, '')))];

const base = dump.rows.map((row) => rightUnder(row));
function tally(right: readonly boolean[], label: string): void {
  const count = (cell: string) =>
    dump.rows.filter((row, i) => cellOf(row) === cell && right[i]).length;
  const delta = cells.map(
    (cell) => count(cell) - dump.rows.filter((row, i) => cellOf(row) === cell && base[i]).length,
  );
  const total = right.filter(Boolean).length;
  const baseTotal = base.filter(Boolean).length;
  const foreignRight = dump.rows.filter((row, i) => foreign(row) && right[i]).length;
  const foreignBase = dump.rows.filter((row, i) => foreign(row) && base[i]).length;
  const german = (r: readonly boolean[]) =>
    dump.rows.filter((row, i) => row.manifestLanguage === 'de' && r[i]).length;
  const shown = pairs.map((pair) => `${count(`${pair}/default`)}/${count(`${pair}/accurate`)}`);
  const signed = (n: number) => `${n >= 0 ? '+' : ''}${n}`;
  console.log(
    `| ${label} | ${shown.join(' ')} | ${total} (${signed(total - baseTotal)}) | ${foreignRight} (${signed(foreignRight - foreignBase)}) | ${german(right)} (${signed(german(right) - german(base))}) | ${Math.min(...delta)} |`,
  );
}

const diffArg = process.argv.includes('--diff')
  ? process.argv[process.argv.indexOf('--diff') + 1]
  : '';
if (diffArg) {
  const [family, t, w, limit, coverage] = diffArg.split(':').map(Number);
  const setting = { family, t, w, limit: limit || 400, coverage: coverage || 0.05 };
  dump.rows.forEach((row, i) => {
    const now = rightUnder(row, setting);
    if (now !== base[i])
      console.log(`${cellOf(row)} ${row.id} ${row.language}: ${base[i] ? 'lost' : 'gained'}`);
  });
  process.exit(0);
}

console.log(`rows ${dump.rows.length}; cells ${pairs.join(' ')} (default/accurate)`);
console.log('| rule | cells | total | not English | German | worst cell |');
console.log('|---|---|---:|---:|---:|---:|');
tally(base, 'today (replayed)');
/** `--settings f:t:w:N:c,...`: only these settings, no fitting. */
const listed = argOf('--settings');
if (listed) {
  for (const item of listed.split(',')) {
    const [family, t, w, limit, coverage] = item.split(':').map(Number);
    const setting = { family, t, w, limit, coverage };
    const right = dump.rows.map((row, i) => rightUnder(row, setting, base[i]));
    tally(right, `${FAMILIES[family].name}, t ${t}, w ${w}, N ${limit}, c ${coverage}`);
  }
  process.exit(0);
}
FAMILIES.forEach((family, f) => {
  if (onlyFamilies && !onlyFamilies.includes(f)) return;
  const grid: { setting: Setting; right: boolean[] }[] = [];
  for (const coverage of COVERAGES)
    for (const limit of LIMITS) {
      for (const t of family.thresholds) {
        for (const w of WEIGHTS) {
          const setting = { family: f, t, w, limit, coverage };
          grid.push({
            setting,
            right: dump.rows.map((row, i) => rightUnder(row, setting, base[i])),
          });
        }
      }
    }
  const rightTotal = (r: boolean[], fold?: number, held = false) =>
    r.filter((ok, i) => ok && (fold === undefined || (foldOf(dump.rows[i]) === fold) === held))
      .length;
  // The best fixed settings, for the table.
  const ranked = [...grid].sort((a, b) => rightTotal(b.right) - rightTotal(a.right));
  // The best settings that keep every cell, then the best of all.
  const keeps = (right: boolean[]) =>
    cells.every(
      (cell) =>
        dump.rows.filter((row, i) => cellOf(row) === cell && right[i]).length >=
        dump.rows.filter((row, i) => cellOf(row) === cell && base[i]).length,
    );
  const keeping = ranked.filter((option) => keeps(option.right)).slice(0, 3);
  for (const { setting, right } of [...keeping, ...ranked.slice(0, 3)]) {
    tally(
      right,
      `${family.name}, t ${setting.t}, w ${setting.w}, N ${setting.limit}, c ${setting.coverage}`,
    );
  }
  // Cross-validated: each fold scored by the setting best on the other four.
  const held = dump.rows.map(() => false);
  const chosen: string[] = [];
  for (let fold = 0; fold < 5; fold++) {
    let best = grid[0];
    for (const option of grid) {
      const score = rightTotal(option.right, fold, false);
      const bestScore = rightTotal(best.right, fold, false);
      if (score > bestScore || (score === bestScore && option.setting.w < best.setting.w)) {
        best = option;
      }
    }
    // Today's rule competes too (weight 0).
    const todayScore = rightTotal(base, fold, false);
    const pick = todayScore >= rightTotal(best.right, fold, false) ? base : best.right;
    chosen.push(
      pick === base
        ? 'today'
        : `${best.setting.t}/${best.setting.w}/${best.setting.limit}/${best.setting.coverage}`,
    );
    dump.rows.forEach((row, i) => {
      if (foldOf(row) === fold) held[i] = pick[i];
    });
  }
  tally(held, `${family.name}, cross-validated (${chosen.join(', ')})`);
  // Cross-validated as the rule is accepted: the most rows right among the settings that keep
  // every cell of the four training folds at or above today's.
  const heldKeeping = dump.rows.map(() => false);
  const chosenKeeping: string[] = [];
  for (let fold = 0; fold < 5; fold++) {
    const train = (right: boolean[], cell: string) =>
      dump.rows.filter((row, i) => foldOf(row) !== fold && cellOf(row) === cell && right[i]).length;
    const keepsOnTrain = (right: boolean[]) =>
      cells.every((cell) => train(right, cell) >= train(base, cell));
    let best: { setting?: Setting; right: boolean[] } = { right: base };
    for (const option of grid) {
      if (!keepsOnTrain(option.right)) continue;
      const score = rightTotal(option.right, fold, false);
      if (score > rightTotal(best.right, fold, false)) best = option;
    }
    chosenKeeping.push(
      best.setting
        ? `${best.setting.t}/${best.setting.w}/${best.setting.limit}/${best.setting.coverage}`
        : 'today',
    );
    dump.rows.forEach((row, i) => {
      if (foldOf(row) === fold) heldKeeping[i] = best.right[i];
    });
  }
  tally(heldKeeping, `${family.name}, cross-validated keeping cells (${chosenKeeping.join(', ')})`);
});
