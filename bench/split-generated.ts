/**
 * Split evaluation that cannot be fitted to: many bundles generated from the DEV documents
 * of the evaluation sets only (2-6 documents each, random order, several seeds, documents of
 * the same category in a row sometimes), the sections of each bundle its categories (in the
 * schema's order, described by the set's criteria). The documents are cut into `--folds`
 * groups and each group's bundles are drawn from its documents alone, so `--sweep` chooses
 * the cut's weights (segments.ts) on the other groups' bundles and scores them on the
 * group's own: the figure it reports is cross-validated over documents as well as bundles.
 *
 * Each bundle is read once per engine by the split's own page reading (readSplitPages, the
 * same as a request); the cut runs for every weight tried. Holdout documents never enter.
 *
 * Besides the engines' figures it prints what is right when the boundaries are the true ones
 * (each document read whole: the floor of the section choice) and why pages go wrong, by
 * kind (split-kinds.ts: whole documents, cut documents, per language and document length).
 *
 * Run: npm run bench:split-eval -- --generated [--set unseen] [--folds 5] [--per-fold 40]
 *      npm run bench:split-eval -- --generated --sweep
 *      npm run bench:split-eval -- --generated --pool   (Deep Split's share and margin)
 *      npm run bench:split-eval -- --generated --lend   (the weight of the fuller vote lent)
 *      npm run bench:split-eval -- --generated --boundary-share   (the boundaries' fuller share)
 *      npm run bench:split-eval -- --generated --lent-start   (where a lent page starts a document)
 *      npm run bench:split-eval -- --generated --whole   (the classifier's share reading runs whole)
 */
import fs from 'node:fs';
import os from 'node:os';
import crypto from 'node:crypto';
import { accurateWholeReader } from '../src/documents/split/whole-documents.js';
import {
  assignByReadings,
  assignDeepSplitWhole,
  reviseUnsure,
  assignBySegments,
  assignDeepSplit,
  assignEachPage,
  bothReadings,
  segmentPages,
  readSplitPages,
  type Assignment,
  type SplitReading,
} from '../src/documents/split/split.operation.js';
import {
  boundaryFeatures,
  BOUNDARY_MODEL,
  DEEP_SEGMENT_COSTS,
  SEGMENT_COSTS,
  type BoundaryFeatures,
  type SegmentCosts,
} from '../src/documents/split/segments.js';
import { pageText } from '../src/documents/parse/layout.types.js';
import {
  formatChanges,
  readPageCues,
  typeSizeChanges,
  type PageCues,
} from '../src/documents/split/page-cues.js';
import { sentenceEncoder } from '../src/documents/encoder/sentence-encoder.js';
import { readCriteria, type RealEvalSetName } from '../test/support/classify-eval-real.js';
import {
  expectedSections,
  generateBundles,
  joinLayouts,
  sectionsFor,
  wordOverlapSplit,
} from '../test/support/split-eval.js';
import { memberLayout, readMembers, type Member } from './split-members.js';
import { countWrongPages, formatKinds, type WrongPageKinds } from './split-kinds.js';

interface ReadBundle {
  set: RealEvalSetName;
  fold: number;
  members: Member[];
  /** Section index of each page (0-based pages). */
  truth: number[];
  fast: SplitReading;
  deep: SplitReading;
  baseline: number;
  eachPage: number;
}

function rightPages(truth: readonly number[], assignments: readonly Assignment[]): number {
  return assignments.filter((a) => a.section === truth[a.page - 1]).length;
}

export interface GeneratedOptions {
  sets: RealEvalSetName[];
  folds: number;
  perFold: number;
  maxPages: number;
  sweep: boolean;
  /** Fit the boundary model (segments.ts BOUNDARY_MODEL) on the bundles and print it. */
  fitBoundaries?: boolean;
  /**
   * A file of the bundles' page readings: read from it when it exists, else written to it,
   * so the cut's weights and variants are tried again without reading the pages again (only
   * valid for the code that wrote it: delete it after changing how pages are read).
   */
  readings?: string;
  /** Choose Deep Split's share of the fuller reading and margin by cross-validation (poolSweep). */
  pool?: boolean;
  /** Choose the weight of the fuller reading's vote lent to pages (lendSweep). */
  lend?: boolean;
  /** Choose the share of the boundary log-odds read with the fuller reading (boundaryShareSweep). */
  boundaryShare?: boolean;
  /** Choose the log-odds a page lent its vote needs to start a document (lentStartSweep). */
  lentStart?: boolean;
  /** Choose the classifier's share when Deep Split reads a run's sides whole (wholeSweep). */
  whole?: boolean;
}

/** The readings as JSON: vectors as arrays, pages with their lines' text and boxes only. */
function saveReadings(file: string, bundles: readonly ReadBundle[]): void {
  const slim = (reading: SplitReading) => ({
    ...reading,
    scored: reading.scored.map((s) => ({
      ...s,
      page: { ...s.page, lines: s.page.lines.map((l) => ({ ...l, words: [], segments: [] })) },
    })),
    evidence: reading.evidence.map((e) => ({ ...e, vector: e.vector && Array.from(e.vector) })),
  });
  const rows = bundles.map((b) => ({
    ...b,
    members: b.members.map(({ pdf: _pdf, ...member }) => member),
    fast: slim(b.fast),
    deep: slim(b.deep),
  }));
  fs.writeFileSync(file, JSON.stringify(rows));
}

function loadReadings(file: string): ReadBundle[] {
  // The cues are read again from the kept pages, so a change to them needs no new reading.
  const revive = (reading: SplitReading): SplitReading => ({
    ...reading,
    scored: reading.scored.map((s) => ({ ...s, cues: readPageCues(s.page) })),
    evidence: reading.evidence.map((e) => ({
      ...e,
      vector: e.vector && Float32Array.from(e.vector as unknown as number[]),
    })),
  });
  return (JSON.parse(fs.readFileSync(file, 'utf8')) as ReadBundle[]).map((b) => ({
    ...b,
    fast: revive(b.fast),
    deep: revive(b.deep),
  }));
}

async function readBundles(options: GeneratedOptions): Promise<ReadBundle[]> {
  if (options.readings && fs.existsSync(options.readings)) {
    console.log(`page readings from ${options.readings}`);
    return loadReadings(options.readings);
  }
  const bundles = await readBundlesAnew(options);
  if (options.readings) saveReadings(options.readings, bundles);
  return bundles;
}

async function readBundlesAnew(options: GeneratedOptions): Promise<ReadBundle[]> {
  sentenceEncoder()?.rememberUpTo(200_000);
  const bundles: ReadBundle[] = [];
  for (const set of options.sets) {
    const schema = readCriteria(set);
    const members = await readMembers(set, 'dev', options.maxPages);
    const layouts = new Map(
      await Promise.all(members.map(async (m) => [m.id, await memberLayout(m)] as const)),
    );
    const usable = members.filter((m) => layouts.get(m.id)?.pages.length === m.pages);
    const rank = (id: string) =>
      crypto.createHash('sha256').update(`${set}-folds:${id}`).digest('hex');
    const ordered = [...usable].sort((a, b) => rank(a.id).localeCompare(rank(b.id)));
    for (let fold = 0; fold < options.folds; fold++) {
      const group = ordered.filter((_, i) => i % options.folds === fold);
      const plans = generateBundles(group, options.perFold, `${set}-generated-${fold}`, {
        minSize: 2,
        maxSize: 6,
        sameCategory: 0.2,
      });
      for (const plan of plans) {
        const document = joinLayouts(plan.members.map((m) => layouts.get(m.id)!));
        const categories = schema
          .map((c) => c.category)
          .filter((c) => plan.members.some((m) => m.category === c));
        const sections = sectionsFor(categories, schema);
        const truth = [...expectedSections(plan.members).values()].map((c) =>
          categories.indexOf(c),
        );
        const baseline = wordOverlapSplit(document.pages.map(pageText), sections);
        let baselineRight = 0;
        for (const [name, pages] of baseline) {
          const index = sections.findIndex((s) => s.name === name);
          baselineRight += pages.filter((p) => truth[p - 1] === index).length;
        }
        // Each reading once: Deep Split's is made of both, deep-split-v1 judges the fuller one.
        const fast = readSplitPages(document, sections, false);
        const fuller = readSplitPages(document, sections, true);
        bundles.push({
          set,
          fold,
          members: plan.members,
          truth,
          fast,
          deep: bothReadings(fast, fuller),
          baseline: baselineRight,
          eachPage: rightPages(truth, assignEachPage(fuller)),
        });
      }
    }
    console.log(
      `${set}: ${usable.length} dev documents, ${bundles.filter((b) => b.set === set).length} bundles, ${bundles.filter((b) => b.set === set).reduce((n, b) => n + b.truth.length, 0)} pages`,
    );
  }
  return bundles;
}

type Score = { right: number; total: number };
const pct = (s: Score) => (s.total === 0 ? '-' : `${((s.right / s.total) * 100).toFixed(1)} %`);

function score(bundles: readonly ReadBundle[], costs: SegmentCosts, deep: boolean): Score {
  let right = 0;
  let total = 0;
  for (const bundle of bundles) {
    // Deep Split: the default's cut, its unsure segments decided again with the fuller reading (at `costs`).
    const assigned = deep
      ? assignDeepSplit(bundle.fast, bundle.deep, costs)
      : assignBySegments(bundle.fast, costs);
    right += rightPages(bundle.truth, assigned);
    total += bundle.truth.length;
  }
  return { right, total };
}

/**
 * Why pages go wrong, counted by kind (split-kinds.ts): whole documents given a neighbour's
 * or another section, pages cut off a document, per language and per document length.
 */
function errorKinds(bundles: readonly ReadBundle[], deep: boolean): WrongPageKinds {
  const kinds: WrongPageKinds = {};
  for (const bundle of bundles) {
    const reading = deep ? bundle.deep : bundle.fast;
    const assigned = deep
      ? assignDeepSplit(bundle.fast, bundle.deep)
      : assignBySegments(bundle.fast, SEGMENT_COSTS);
    let start = 0;
    const members = bundle.members.map((member) => {
      const section = String(bundle.truth[start]);
      start += member.pages;
      return { ...member, category: section };
    });
    const sectionOf = (page: number) => {
      const section = assigned[page - 1]?.section;
      return section === undefined ? undefined : String(section);
    };
    countWrongPages(kinds, members, sectionOf, (page) => pageText(reading.scored[page - 1].page));
  }
  return kinds;
}

/**
 * Right pages when the boundaries are the true ones: each member read alone as one document
 * by the engine's reading and weights. What is left wrong is the reading of whole documents,
 * not the cut (the floor of the cut's section choice).
 */
function atTrueBoundaries(bundle: ReadBundle, deep: boolean): number {
  const whole = {
    ...SEGMENT_COSTS,
    segment: 1e9,
    languageChange: 1,
    formatChange: 1,
    boundaryWeight: 0,
  };
  let start = 0;
  let right = 0;
  for (const member of bundle.members) {
    const alone = (reading: SplitReading): SplitReading => ({
      ...reading,
      scored: reading.scored.slice(start, start + member.pages),
      evidence: reading.evidence.slice(start, start + member.pages),
    });
    const assigned = deep
      ? assignDeepSplit(alone(bundle.fast), alone(bundle.deep), DEEP_SEGMENT_COSTS, whole)
      : assignBySegments(alone(bundle.fast), whole);
    right += assigned.filter((a, i) => a.section === bundle.truth[start + i]).length;
    start += member.pages;
  }
  return right;
}

/** The weights the sweep tries (every combination), each engine's kept weights among them. */
const GRID: Partial<Record<keyof SegmentCosts, number[]>> = {
  temperature: [0.02, 0.03],
  pageWeight: [0.25, 0.5],
  boundaryWeight: [0, 4, 8],
  pooledWeight: [0, 1, 2],
};

/** Every combination of the grid's weights, the others kept as the engine has them. */
function gridCosts(kept: SegmentCosts): SegmentCosts[] {
  let all: SegmentCosts[] = [kept];
  for (const [key, values] of Object.entries(GRID))
    all = all.flatMap((costs) => values.map((value) => ({ ...costs, [key]: value })));
  return all;
}

/**
 * How often each boundary cue is seen at the true boundaries and between pages of one
 * document: a cue worth its factor is much more frequent at the first.
 */
function cueRates(bundles: readonly ReadBundle[]): string {
  const cues: Record<string, (before: PageCues, current: PageCues) => boolean> = {
    language: (a, b) =>
      a.language !== undefined && b.language !== undefined && a.language !== b.language,
    format: formatChanges,
    'printed 1': (a, b) => b.printedNumber === 1 && a.printedNumber !== 0,
  };
  const seen: Record<string, { boundary: number; inside: number }> = {};
  let boundaries = 0;
  let inside = 0;
  for (const bundle of bundles) {
    const scored = bundle.fast.scored;
    let start = 0;
    const starts = new Set(bundle.members.map((m) => ((start += m.pages), start - m.pages)));
    for (let i = 1; i < scored.length; i++) {
      const atBoundary = starts.has(i);
      if (atBoundary) boundaries++;
      else inside++;
      const typeRow = (seen['type size'] ??= { boundary: 0, inside: 0 });
      if (
        typeSizeChanges(
          scored.map((s) => s.cues),
          i,
        )
      )
        typeRow[atBoundary ? 'boundary' : 'inside']++;
      for (const [name, test] of Object.entries(cues)) {
        const row = (seen[name] ??= { boundary: 0, inside: 0 });
        if (test(scored[i - 1].cues, scored[i].cues)) row[atBoundary ? 'boundary' : 'inside']++;
      }
    }
  }
  return Object.entries(seen)
    .map(
      ([name, row]) =>
        `  ${name.padEnd(12)} at boundaries ${row.boundary}/${boundaries}, inside documents ${row.inside}/${inside}`,
    )
    .join('\n');
}

/** Each weight moved alone from each engine's kept weights: what each cue adds. */
const VARIATIONS: Partial<Record<keyof SegmentCosts, number[]>> = {
  languageChange: [1, 0.25],
  distinctWeight: [0, 1],
  formatChange: [1, 0.5, 0.25, 0.1],
  boundaryWeight: [0, 0.5, 1, 2, 4],
  pooledWeight: [0, 0.5, 1, 2],
};

/**
 * The boundary model's weights: a logistic regression of "this page starts a document" on
 * its boundary features, over every page after the first of every bundle (the default
 * reading), by gradient descent with a small L2 penalty.
 */
function fitBoundaryModel(bundles: readonly ReadBundle[]): BoundaryFeatures {
  const keys = Object.keys(BOUNDARY_MODEL) as (keyof BoundaryFeatures)[];
  const rows: { x: number[]; starts: number }[] = [];
  for (const bundle of bundles) {
    const pages = segmentPages(bundle.fast);
    let start = 0;
    const starts = new Set(bundle.members.map((m) => ((start += m.pages), start - m.pages)));
    for (let i = 1; i < pages.length; i++) {
      const features = boundaryFeatures(pages, i);
      rows.push({ x: keys.map((key) => features[key]), starts: starts.has(i) ? 1 : 0 });
    }
  }
  const weights = keys.map(() => 0);
  for (let step = 0; step < 3000; step++) {
    const gradient = keys.map(() => 0);
    for (const { x, starts } of rows) {
      const p = 1 / (1 + Math.exp(-x.reduce((sum, value, j) => sum + value * weights[j], 0)));
      x.forEach((value, j) => (gradient[j] += (p - starts) * value));
    }
    weights.forEach((w, j) => (weights[j] -= 0.5 * (gradient[j] / rows.length + 0.001 * w)));
  }
  return Object.fromEntries(
    keys.map((key, j) => [key, Math.round(weights[j] * 100) / 100]),
  ) as BoundaryFeatures;
}

export async function runGenerated(options: GeneratedOptions): Promise<void> {
  const started = performance.now();
  const bundles = await readBundles(options);
  console.log(
    `read ${bundles.length} bundles in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const sum = (items: readonly ReadBundle[], value: (b: ReadBundle) => number): Score => ({
    right: items.reduce((n, b) => n + value(b), 0),
    total: items.reduce((n, b) => n + b.truth.length, 0),
  });
  console.log(
    `\ngenerated bundles, cut weights ${JSON.stringify(SEGMENT_COSTS)} (default), ` +
      `${JSON.stringify(DEEP_SEGMENT_COSTS)} (deep)`,
  );
  console.log(
    `${'set'.padEnd(10)}${'bundles'.padStart(8)}${'pages'.padStart(7)}${'default'.padStart(10)}${'deep'.padStart(10)}${'deep v1'.padStart(10)}${'baseline'.padStart(10)}`,
  );
  for (const set of [...options.sets, 'all'] as const) {
    const mine = bundles.filter((b) => set === 'all' || b.set === set);
    console.log(
      `${set.padEnd(10)}${String(mine.length).padStart(8)}${String(sum(mine, () => 0).total).padStart(7)}` +
        `${pct(score(mine, SEGMENT_COSTS, false)).padStart(10)}${pct(score(mine, DEEP_SEGMENT_COSTS, true)).padStart(10)}` +
        `${pct(sum(mine, (b) => b.eachPage)).padStart(10)}${pct(sum(mine, (b) => b.baseline)).padStart(10)}`,
    );
  }
  for (const set of [...options.sets, 'all'] as const) {
    const mine = bundles.filter((b) => set === 'all' || b.set === set);
    console.log(
      `${set} at the true boundaries (each document read whole): default ` +
        `${pct(sum(mine, (b) => atTrueBoundaries(b, false)))}, deep ${pct(sum(mine, (b) => atTrueBoundaries(b, true)))}`,
    );
  }
  console.log(`boundary cues (pages after the first of a bundle):\n${cueRates(bundles)}`);
  if (options.fitBoundaries)
    console.log(
      `boundary model fitted on these bundles: ${JSON.stringify(fitBoundaryModel(bundles))}`,
    );
  for (const [key, values] of Object.entries(VARIATIONS)) {
    for (const value of values) {
      const costs = (base: SegmentCosts) => ({ ...base, [key]: value });
      console.log(
        `${key} ${value}: default ${pct(score(bundles, costs(SEGMENT_COSTS), false))}, ` +
          `deep ${pct(score(bundles, costs(DEEP_SEGMENT_COSTS), true))}`,
      );
    }
  }
  for (const deep of [false, true]) {
    console.log(
      `wrong pages (${deep ? 'deep' : 'default'}):\n${formatKinds(errorKinds(bundles, deep))}`,
    );
  }
  if (options.pool) poolSweep(bundles, options);
  if (options.lend) lendSweep(bundles, options);
  if (options.boundaryShare) boundaryShareSweep(bundles, options);
  if (options.lentStart) lentStartSweep(bundles, options);
  if (options.whole) wholeSweep(bundles, options);
  if (options.sweep) {
    // Each engine's weights chosen on the other folds' bundles, scored on the fold's own.
    for (const deep of [false, true]) {
      const grid = gridCosts(deep ? DEEP_SEGMENT_COSTS : SEGMENT_COSTS);
      const cv = { right: 0, total: 0 };
      for (let fold = 0; fold < options.folds; fold++) {
        const train = bundles.filter((b) => b.fold !== fold);
        let best = grid[0];
        let bestRight = -1;
        for (const costs of grid) {
          const { right } = score(train, costs, deep);
          if (right > bestRight) [best, bestRight] = [costs, right];
        }
        const held = score(
          bundles.filter((b) => b.fold === fold),
          best,
          deep,
        );
        cv.right += held.right;
        cv.total += held.total;
        console.log(
          `${deep ? 'deep' : 'default'} fold ${fold}: chosen ${JSON.stringify(best)} -> held out ${pct(held)}`,
        );
      }
      console.log(`${deep ? 'deep' : 'default'} cross-validated: ${pct(cv)}`);
      const ranked = grid
        .map((costs) => ({ costs, all: score(bundles, costs, deep) }))
        .sort((a, b) => b.all.right - a.all.right);
      for (const row of ranked.slice(0, 5)) {
        console.log(`  ${JSON.stringify(row.costs)}  ${pct(row.all)}`);
      }
    }
  }
  console.log(
    `\n${((performance.now() - started) / 1000).toFixed(1)} s; load average ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')} on ${os.availableParallelism()} cores`,
  );
}

/**
 * Deep Split's cut with the fuller reading pooled in at `share` (assignDeepSplit); with a
 * `margin`, the default's cut with only its unsure segments decided again (reviseUnsureSegments).
 */
function scorePool(bundles: readonly ReadBundle[], share: number, margin?: number): Score {
  let right = 0;
  let total = 0;
  for (const bundle of bundles) {
    const readings = [
      { reading: bundle.fast, costs: SEGMENT_COSTS, share: 1 },
      { reading: bundle.deep, costs: DEEP_SEGMENT_COSTS, share },
    ];
    const assigned =
      margin === undefined ? assignByReadings(readings) : reviseUnsure(readings, margin);
    right += rightPages(bundle.truth, assigned);
    total += bundle.truth.length;
  }
  return { right, total };
}

/** The fuller reading's shares the pool sweep tries (0: the default split). */
const POOL_SHARES = [0, 0.05, 0.075, 0.1, 0.125, 0.15, 0.2, 0.3, 0.5, 1];
/** The margins (log-probability per page) under which the gated sweep decides again. */
const POOL_MARGINS = [0.1, 0.25, 0.5, 1, 2, 4];

/**
 * Deep Split's share of the fuller reading (FULLER_READING_SHARE) and its margin
 * (UNSURE_MARGIN) chosen on the other folds' bundles and scored on the fold's own, for the
 * pooled cut (shares alone, record 0470) and for the default's cut with its unsure segments
 * decided again (shares and margins, record 0469); then every row's figure per fold and set.
 */
function poolSweep(bundles: readonly ReadBundle[], options: GeneratedOptions): void {
  const rows = [
    ...POOL_SHARES.map((share) => ({ share, margin: undefined as number | undefined })),
    ...[0.1, 0.25, 0.5, 1].flatMap((share) => POOL_MARGINS.map((margin) => ({ share, margin }))),
  ].map((pool) => ({
    ...pool,
    perFold: Array.from({ length: options.folds }, (_, fold) =>
      scorePool(
        bundles.filter((b) => b.fold === fold),
        pool.share,
        pool.margin,
      ),
    ),
  }));
  const sumOf = (scores: readonly Score[]) => ({
    right: scores.reduce((n, s) => n + s.right, 0),
    total: scores.reduce((n, s) => n + s.total, 0),
  });
  for (const gated of [false, true]) {
    const candidates = rows.filter((row) => (row.margin !== undefined) === gated);
    const cv: Score[] = [];
    for (let fold = 0; fold < options.folds; fold++) {
      const trained = (row: (typeof rows)[number]) =>
        sumOf(row.perFold.filter((_, f) => f !== fold)).right;
      const chosen = candidates.reduce((a, b) => (trained(b) > trained(a) ? b : a));
      cv.push(chosen.perFold[fold]);
      console.log(
        `${gated ? 'gated' : 'pool'} fold ${fold}: share ${chosen.share} margin ${chosen.margin} -> held out ${pct(chosen.perFold[fold])}`,
      );
    }
    console.log(`${gated ? 'gated' : 'pool'} cross-validated: ${pct(sumOf(cv))}`);
  }
  for (const row of rows) {
    const sets = options.sets
      .map(
        (set) =>
          `${set} ${pct(
            scorePool(
              bundles.filter((b) => b.set === set),
              row.share,
              row.margin,
            ),
          )}`,
      )
      .join(', ');
    console.log(
      `  share ${row.share} margin ${row.margin}: ${pct(sumOf(row.perFold))} (${sets}); per fold ${row.perFold.map(pct).join(' / ')}`,
    );
  }
}

/**
 * The weights of the fuller reading's vote lent to pages and the majorities it must give one
 * section the lend sweep tries (every combination; weight 0: none).
 */
const LENT_SETTINGS = [0, 0.25, 0.5, 0.75, 1].flatMap((weight) =>
  (weight === 0 ? [0] : [0, 0.5, 0.6, 0.7, 0.8, 0.9]).map((majority) => ({ weight, majority })),
);

/** The log-odds a page lent its vote must show to start a document (-Infinity: any). */
const LENT_STARTS = [-Infinity, -2, -1, 0, 1, 2];

/** The shares of the boundary log-odds read with the fuller reading's vectors (0: none). */
const CHANGE_SHARES = [0, 0.1, 0.2, 0.25, 0.3, 0.4, 0.5, 0.75, 1];

/**
 * The weight of the fuller reading's vote Deep Split lends to pages the default reading finds
 * no evidence on and the majority it must give one section (LENT_VOTE_WEIGHT and
 * LENT_VOTE_MAJORITY, lendFullerVotes), each chosen on the other folds' bundles.
 */
function lendSweep(bundles: readonly ReadBundle[], options: GeneratedOptions): void {
  settingSweep(bundles, options, 'lend', LENT_SETTINGS, (bundle, lent) =>
    assignDeepSplit(bundle.fast, bundle.deep, DEEP_SEGMENT_COSTS, SEGMENT_COSTS, lent),
  );
}

/**
 * The share of Deep Split's boundary log-odds read with the fuller reading's passage vectors
 * (FULLER_CHANGE_SHARE, blendedBoundaryCosts), chosen on the other folds' bundles.
 */
function boundaryShareSweep(bundles: readonly ReadBundle[], options: GeneratedOptions): void {
  settingSweep(bundles, options, 'boundary share', CHANGE_SHARES, (bundle, share) =>
    assignDeepSplit(bundle.fast, bundle.deep, DEEP_SEGMENT_COSTS, SEGMENT_COSTS, undefined, share),
  );
}

/**
 * The boundary log-odds a page with evidence only by a lent vote must show to start a
 * document in Deep Split's cut (LENT_START_LOG_ODDS), chosen on the other folds' bundles.
 */
function lentStartSweep(bundles: readonly ReadBundle[], options: GeneratedOptions): void {
  settingSweep(bundles, options, 'lent start', LENT_STARTS, (bundle, start) =>
    assignDeepSplit(
      bundle.fast,
      bundle.deep,
      DEEP_SEGMENT_COSTS,
      SEGMENT_COSTS,
      undefined,
      undefined,
      start,
    ),
  );
}

/**
 * One of Deep Split's settings chosen on the other folds' bundles and scored on the fold's
 * own; then each setting's figure per set and per fold beside the default's.
 */
function settingSweep<Setting>(
  bundles: readonly ReadBundle[],
  options: GeneratedOptions,
  name: string,
  settings: readonly Setting[],
  assign: (bundle: ReadBundle, setting: Setting) => Assignment[],
): void {
  // -Infinity (no threshold) reads as null in JSON.
  const label = (setting: Setting) =>
    typeof setting === 'number' ? String(setting) : JSON.stringify(setting);
  const rows = settings.map((setting) =>
    bundles.map((bundle) => rightPages(bundle.truth, assign(bundle, setting))),
  );
  const defaults = bundles.map((b) => rightPages(b.truth, assignBySegments(b.fast, SEGMENT_COSTS)));
  const over = (right: readonly number[], keep: (b: ReadBundle) => boolean): Score => ({
    right: right.reduce((n, r, i) => n + (keep(bundles[i]) ? r : 0), 0),
    total: bundles.reduce((n, b) => n + (keep(b) ? b.truth.length : 0), 0),
  });
  const folds = Array.from({ length: options.folds }, (_, fold) => fold);
  const cv: Score = { right: 0, total: 0 };
  for (const fold of folds) {
    const trained = (j: number) => over(rows[j], (b) => b.fold !== fold).right;
    const chosen = rows.reduce((best, _, j) => (trained(j) > trained(best) ? j : best), 0);
    const held = over(rows[chosen], (b) => b.fold === fold);
    cv.right += held.right;
    cv.total += held.total;
    console.log(`${name} fold ${fold}: ${label(settings[chosen])} -> held out ${pct(held)}`);
  }
  console.log(`${name} cross-validated: ${pct(cv)}`);
  const line = (label: string, right: readonly number[]) =>
    `  ${label}: ${pct(over(right, () => true))} (${options.sets
      .map((set) => `${set} ${pct(over(right, (b) => b.set === set))}`)
      .join(', ')}); per set and fold ${options.sets
      .map((set) =>
        folds.map((f) => pct(over(right, (b) => b.set === set && b.fold === f))).join(' / '),
      )
      .join(' | ')}`;
  console.log(line('default split', defaults));
  settings.forEach((setting, j) => console.log(line(`${name} ${label(setting)}`, rows[j])));
}

/** The classifier's shares Deep Split's whole reading of a run's sides tries (0: the cut's alone). */
const WHOLE_SHARES = [0, 0.25, 0.5, 0.75, 1];

/**
 * The classifier's share beside the cut's own reading when Deep Split reads the two sides of
 * a run whole (WHOLE_READING_SHARE, cutWhereWholeReadingsDiffer), chosen on the other folds'
 * bundles. Each side is classified once per bundle whatever the share (accurateWholeReader
 * remembers its answers), so this reads for minutes, not hours.
 */
function wholeSweep(bundles: readonly ReadBundle[], options: GeneratedOptions): void {
  const readers = new Map(
    bundles.map((bundle) => {
      const schema = readCriteria(bundle.set);
      const categories = schema
        .map((c) => c.category)
        .filter((c) => bundle.members.some((m) => m.category === c));
      const pages = bundle.fast.scored.map((s) => s.page);
      return [bundle, accurateWholeReader(pages, sectionsFor(categories, schema))] as const;
    }),
  );
  settingSweep(bundles, options, 'whole share', WHOLE_SHARES, (bundle, share) =>
    assignDeepSplitWhole(bundle.fast, bundle.deep, readers.get(bundle)!, share),
  );
}
