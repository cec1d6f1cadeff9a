/**
 * Which kind of evidence puts the wrong category ahead (record 0526, as record 0508 read the
 * old set): for every row of a set of deep-dump.ts's output the default model's answer gets
 * wrong, the winner's lead over the right category in each kind (semantic, lexical, layout,
 * opening) as weighted in the score, replayed from the dumped cosines for the passages the
 * default model reads (centred as the service centres them).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/miss-diagnosis.js <dump.json>
 *      [set]
 */
import { LABEL_WEIGHT } from '../../src/documents/classify/fusion.js';
import { type DumpRow, readDumpArgument } from './deep-dump.types.js';
import { argmax, mean, WEIGHTS } from './deep-replay.js';

const onlySet = process.argv[3] ?? 'unseen';
const { schemas, rows } = readDumpArgument('miss-diagnosis.js <deep-dump.json> [set]');
const KINDS = ['semantic', 'lexical', 'layout', 'opening'];

/** Per category, each kind's weighted part of its score as the default model reads. */
function partsOf(row: DumpRow): number[][] {
  const read = row.inDefault.map((flag) => flag === 1);
  const lines = row.cos.flat();
  const offsets = lines[0].map((_, k) => 0.5 * mean(lines.map((line) => line[k])));
  const opens = row.passagePages[0] >= 0;
  return row.evidence.map((category, c) => {
    const kinds = category.map((e, s) => {
      const values = row.cos[c][s].map((v, k) => v - offsets[k]);
      const best = Math.max(...values.filter((_, k) => read[k]));
      return [Number.isFinite(best) ? best : 0, e[1], e[2], opens ? values[0] : 0];
    });
    return KINDS.map(
      (_, k) => WEIGHTS[k] * (mean(kinds.slice(1).map((x) => x[k])) + LABEL_WEIGHT * kinds[0][k]),
    );
  });
}

const leads = new Map<string, number>();
for (const row of rows.filter((r) => r.set === onlySet)) {
  const parts = partsOf(row);
  const scores = parts.map((p) => p.reduce((sum, v) => sum + v, 0));
  const won = argmax(scores);
  if (won === row.expected) continue;
  const names = schemas[`${row.set}/${row.variant}`].categories;
  const gaps = parts[won].map((v, k) => v - parts[row.expected][k]);
  const most = argmax(gaps);
  const key = `${row.variant} ${KINDS[most]}`;
  leads.set(key, (leads.get(key) ?? 0) + 1);
  console.log(
    `${row.variant.padEnd(9)} ${row.id.slice(0, 44).padEnd(44)} ${names[row.expected]} -> ${
      names[won]
    }  ${gaps.map((g, k) => `${KINDS[k].slice(0, 3)} ${g.toFixed(3)}`).join('  ')}  [${row.form
      .slice(0, 3)
      .join(' ')}]`,
  );
}
console.log('\nmisses by the kind most ahead:');
for (const [key, count] of [...leads].sort()) console.log(`  ${key}: ${count}`);
