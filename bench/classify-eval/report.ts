/**
 * Printing of the real-document evaluation: the side-by-side table of every set and schema
 * variant, breakdowns per category and per language, confusion matrices and the reliability
 * table of the models' confidence.
 */
import type { Calibration, Scores } from '../../test/support/classify-eval-metrics.js';

export interface ModelRun {
  name: string;
  scores: Scores;
  /** Absent for a predictor without a confidence (the word-overlap baseline). */
  calibration?: Calibration;
  misses: string[];
  slowest: string[];
}

export interface VariantRun {
  set: string;
  variant: string;
  categories: string[];
  runs: ModelRun[];
}

export const pct = (correct: number, total: number): string =>
  total === 0 ? '   -  ' : `${((correct / total) * 100).toFixed(1).padStart(5)}%`;

/** One line per (set, variant): accuracy of each model, the baseline, and each model's ECE. */
export function printSideBySide(variants: readonly VariantRun[]): void {
  const models = variants[0]?.runs.map((run) => run.name) ?? [];
  const calibrated = variants[0]?.runs.filter((run) => run.calibration).map((run) => run.name);
  console.log(
    `\n${'set'.padEnd(9)}${'schema'.padEnd(10)}${'labels'.padStart(6)}${'docs'.padStart(6)}  ` +
      models.map((m) => m.padStart(17)).join('') +
      (calibrated ?? []).map((m) => `ECE ${m}`.padStart(14)).join(''),
  );
  for (const { set, variant, categories, runs } of variants) {
    const total = runs[0].scores.total;
    const cells = runs.map((run) =>
      `${pct(run.scores.correct, total)} (${run.scores.correct})`.padStart(17),
    );
    const eces = runs
      .filter((run) => run.calibration)
      .map((run) => (run.calibration?.ece ?? 0).toFixed(3).padStart(14));
    const errors = runs.reduce((sum, run) => sum + run.scores.errors, 0);
    console.log(
      `${set.padEnd(9)}${variant.padEnd(10)}${String(categories.length).padStart(6)}` +
        `${String(total).padStart(6)}  ${cells.join('')}${eces.join('')}` +
        (errors > 0 ? `  ${errors} errors` : ''),
    );
  }
}

export function printModelLines(runs: readonly ModelRun[]): void {
  console.log('\nmodel     accuracy         macro-F1  errors  ms/page p50  p95');
  for (const { name, scores: s } of runs) {
    console.log(
      `${name.padEnd(9)} ${pct(s.correct, s.total)} (${s.correct}/${s.total})`.padEnd(27) +
        `${s.macroF1.toFixed(3).padStart(7)}  ${String(s.errors).padStart(6)}  ` +
        `${s.p50MsPerPage.toFixed(1).padStart(11)}  ${s.p95MsPerPage.toFixed(1).padStart(5)}`,
    );
  }
}

export function printBreakdown(
  runs: readonly ModelRun[],
  title: string,
  key: 'perCategory' | 'perLanguage',
): void {
  console.log(`\n${title.padEnd(18)}   n  ${runs.map((r) => r.name.padStart(8)).join(' ')}`);
  const keys = Object.keys(runs[0].scores[key]).sort();
  for (const k of keys) {
    const total = runs[0].scores[key][k].total;
    const cells = runs.map((r) => pct(r.scores[key][k]?.correct ?? 0, total).padStart(8));
    console.log(`${k.padEnd(18)} ${String(total).padStart(3)}  ${cells.join(' ')}`);
  }
}

export function printConfusion(runs: readonly ModelRun[], categories: readonly string[]): void {
  const short = (category: string) => category.slice(0, 6);
  for (const { name, scores: s } of runs) {
    console.log(`\nconfusion, ${name} (rows: expected, columns: chosen)`);
    const columns = [...categories, 'none'];
    console.log(`${''.padEnd(18)}${columns.map((c) => short(c).padStart(7)).join('')}`);
    for (const expected of categories.filter((c) => s.confusion[c])) {
      const row = columns.map((c) => String(s.confusion[expected][c] ?? '.').padStart(7));
      console.log(`${expected.padEnd(18)}${row.join('')}`);
    }
  }
}

/** The reliability table of one model: per confidence bin, count, mean confidence, accuracy. */
export function printReliability(title: string, calibration: Calibration): void {
  console.log(
    `\nreliability, ${title}: ECE ${calibration.ece.toFixed(3)} over ${calibration.scored} ` +
      'predictions\n  confidence      n  mean conf  accuracy',
  );
  for (const bin of calibration.bins) {
    if (bin.count === 0) continue;
    console.log(
      `  ${bin.from.toFixed(1)}-${bin.to.toFixed(1)}  ${String(bin.count).padStart(7)}  ` +
        `${bin.meanConfidence.toFixed(3).padStart(9)}  ${pct(bin.accuracy * bin.count, bin.count).padStart(8)}`,
    );
  }
}
