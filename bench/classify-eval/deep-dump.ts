/**
 * Writes, for every (set, schema variant, document) of the evaluation sets as Deep Classify
 * reads it, what a trial of another second pass over near neighbours needs without running
 * the encoder again (deep-trial.ts): each statement's cosines with every passage, whole page
 * and sentence of the document's form, the evidence, the default model's scores, Deep
 * Classify's before and after its second pass, and each statement's cosines with every
 * sentence layout.ts can say of any document (the form inventory); with `--parts`, each
 * criterion's parts' cosines with every passage (aggregation-trial.ts, record 0484); with
 * `--extra`, which passages are single lines, each passage's words, other wordings of each
 * category's name and the category read as one description (generality-trial.ts, record 0508);
 * with `--register`, how the document addresses its reader (register.ts), whether its pages
 * are unpaged (one page of unknown size), each passage's cosine with the name sentence's
 * template words (TEMPLATES) and each statement's cosines with the register sentences
 * (register-trial.ts, record 0544).
 * Run: tsc -p tsconfig.bench.json && node dist/bench/classify-eval/deep-dump.js <file> [--holdout]
 *      [--parts] [--extra] [--register]
 */
import fs from 'node:fs';
import { ocrEffortOf } from '../../src/documents/classify/classify.task.js';
import {
  readDocument,
  schemaEvidence,
  warmUpClassifier,
} from '../../src/documents/classify/classify.js';
import { labelSentence, passagesOf, wholePages } from '../../src/documents/classify/evidence.js';
import { registerProfile } from '../../src/documents/classify/register.js';
import { describeLayout, type LayoutProfile } from '../../src/documents/classify/layout.js';
import { categoryScore, strength } from '../../src/documents/classify/fusion.js';
import { separateNeighbours } from '../../src/documents/classify/near-neighbours.js';
import { allChunks, allLines } from '../../src/documents/classify/chunks.js';
import { cosine, sentenceEncoder } from '../../src/documents/encoder/sentence-encoder.js';
import { pagesOf } from '../../test/support/classify-eval.js';
import { loadRealEvalSet, REAL_EVAL_SETS } from '../../test/support/classify-eval-real.js';
import { SCHEMA_VARIANTS, schemaVariant } from '../../test/support/classify-eval-schemas.js';
import { REGISTER_SENTENCES, type Dump, type DumpRow } from './deep-dump.types.js';

const file = process.argv[2];
const split = process.argv.includes('--holdout') ? 'holdout' : 'dev';
const encoder = sentenceEncoder();
if (!file || !encoder) process.exit(2);
encoder.rememberUpTo(60_000);
warmUpClassifier();
const r = (value: number) => Math.round(value * 1e4) / 1e4;
const rows: DumpRow[] = [];
const schemas: Dump['schemas'] = {};

/** Every sentence describeLayout says of some document: each trait alone on a plain one. */
function formInventory(): string[] {
  const plain: LayoutProfile = {
    pages: 5,
    landscape: 0,
    portrait: 0,
    large: 0,
    small: 0,
    emptyPages: 0,
    wordsPerPage: 200,
    wordsPerLine: 8,
    shortLines: 0,
    longLines: 0,
    bullets: 0,
    tableRows: 0,
    fields: 0,
    blanks: 0,
    headings: 0,
    numbers: 0,
    amounts: 0,
    dates: 0,
    times: 0,
    contacts: 0,
  };
  const traits: Partial<LayoutProfile>[] = [
    { pages: 1 },
    { pages: 2 },
    { pages: 10 },
    { pages: 40 },
    { landscape: 1 },
    { portrait: 1 },
    { large: 1 },
    { small: 1 },
    { emptyPages: 5 },
    { emptyPages: 1 },
    { wordsPerPage: 10 },
    { wordsPerPage: 600 },
    { longLines: 1 },
    { shortLines: 1 },
    { bullets: 1 },
    { tableRows: 1 },
    { fields: 1 },
    { blanks: 1 },
    { headings: 1 },
    { amounts: 1 },
    { numbers: 1 },
    { dates: 1 },
    { times: 1 },
    { contacts: 1 },
  ];
  return [...new Set(traits.flatMap((trait) => describeLayout({ ...plain, ...trait })))];
}
/**
 * A criterion's parts where it enumerates (record 0484): split at commas, semicolons and
 * colons of any script; `headed` puts the text before a colon in front of each item after
 * it ("a text that presents: posters"). None for a criterion of one part.
 */
function partsOf(criterion: string, headed: boolean): string[] {
  const pieces = (text: string) =>
    text
      .split(/[,;\uFF0C\uFF1B\u3001\u060C]/u)
      .map((piece) => piece.trim())
      .filter((piece) => /\p{L}/u.test(piece));
  const [head, ...rest] = criterion.split(/[:\uFF1A]/u);
  const items = rest.length > 0 ? pieces(rest.join(':')) : [];
  const parts =
    rest.length === 0
      ? pieces(head)
      : headed
        ? items.map((item) => `${head.trim()}: ${item}`)
        : [...pieces(head), ...items];
  return parts.length > 1 ? parts : [];
}
/**
 * Other wordings of a category's name (`--extra`), each the same for every category: the
 * bare name, a heading, a sentence of another form.
 */
export const EXTRA_LABELS: ((name: string) => string)[] = [
  (name) => name,
  (name) => `Document type: ${name}.`,
  (name) => `This is a ${name}.`,
];
const EXTRA = process.argv.includes('--extra');
const REGISTER = process.argv.includes('--register');
/** The name sentence's own words without a name (labelSentence), and the bare noun. */
const TEMPLATES = ['A document.', labelSentence('').replace(/\s+\./u, '.')];
const registerSentences = [...REGISTER_SENTENCES];
const registerVectors = REGISTER ? encoder.embed(registerSentences) : [];
const templateVectors = REGISTER ? encoder.embed(TEMPLATES) : [];
const nameOf = (category: string) => category.replace(/[_-]+/g, ' ').trim();
const PART_KINDS = process.argv.includes('--parts') ? [false, true] : [];
const inventory = formInventory();
const inventoryVectors = encoder.embed(inventory);
for (const set of REAL_EVAL_SETS) {
  const variants = SCHEMA_VARIANTS.map((name) => schemaVariant(set, name));
  for (const variant of variants) {
    const statements = variant.schema.flatMap((e) => [labelSentence(e.category), ...e.criteria]);
    const vectors = encoder.embed(statements);
    schemas[`${set}/${variant.name}`] = {
      categories: variant.schema.map((e) => e.category),
      statementCosines: vectors.map((a) => vectors.map((b) => r(cosine(a, b)))),
      inventoryCosines: variant.schema.map((e) =>
        encoder
          .embed([labelSentence(e.category), ...e.criteria])
          .map((v) => inventoryVectors.map((f) => r(cosine(v, f)))),
      ),
      ...(REGISTER
        ? {
            registerCosines: variant.schema.map((e) =>
              encoder
                .embed([labelSentence(e.category), ...e.criteria])
                .map((v) => registerVectors.map((f) => r(cosine(v, f)))),
            ),
          }
        : {}),
    };
  }
  const loaded = await loadRealEvalSet([split], undefined, ocrEffortOf('accurate'), set);
  for (const document of loaded.documents) {
    const pages = pagesOf(document);
    const texts = pages.map((page) => (typeof page === 'string' ? page : page.text));
    const sizes = pages.map((page) => (typeof page === 'string' ? undefined : page.size));
    const reading = readDocument(texts, undefined, 160, 24, sizes);
    const first = passagesOf(texts, undefined, 32, 24);
    const firstTexts = new Set(first.map((p) => p.text));
    const passageVectors = encoder.embed(reading.passages.map((p) => p.text));
    const lineTexts = new Set(allLines(texts).map((line) => line.text));
    const chunkTexts = new Set(allChunks(texts).map((chunk) => chunk.text));
    const whole = wholePages(texts);
    const pageVectors = encoder.embed(whole.map((p) => p.text));
    const formVectors = encoder.embed(reading.form);
    for (const variant of variants) {
      const schema = variant.schema;
      const input = { pages, classificationSchema: schema };
      const deep = schemaEvidence({ ...input, model: 'accurate' });
      const plain = schemaEvidence({ ...input, model: 'default' });
      const firstScores = deep.evidence.map((c) => ({
        score: categoryScore(c),
        criteria: c.criteria.map((x) => strength(x)),
      }));
      const shipped = separateNeighbours(deep.schema, deep.evidence, firstScores);
      const statementVectors = schema.map((e) =>
        encoder.embed([labelSentence(e.category), ...e.criteria]),
      );
      rows.push({
        set,
        variant: variant.name,
        id: document.file,
        language: document.language,
        pages: texts.length,
        expected: schema.map((e) => e.category).indexOf(variant.expected(document.category)),
        defaultScores: plain.evidence.map((c) => r(categoryScore(c))),
        firstScores: firstScores.map((s) => r(s.score)),
        shippedScores: shipped.map((s) => r(s.score)),
        evidence: deep.evidence.map((c) =>
          [c.label, ...c.criteria].map((e) => [
            r(e.semantic),
            r(e.lexical),
            r(e.layout),
            r(e.opening ?? 0),
            e.passage,
          ]),
        ),
        votes: deep.evidence.map((c) => r(c.votes ?? 0)),
        pageVotes: deep.evidence.map((c) => r(c.pageVotes ?? 0)),
        form: reading.form,
        passagePages: reading.passages.map((p) => p.page),
        inDefault: reading.passages.map((p) => (firstTexts.has(p.text) ? 1 : 0)),
        cos: statementVectors.map((vs) =>
          vs.map((v) => passageVectors.map((p) => r(cosine(v, p)))),
        ),
        pageCos: statementVectors.map((vs) =>
          vs.map((v) => pageVectors.map((p) => r(cosine(v, p)))),
        ),
        ...Object.fromEntries(
          PART_KINDS.map((headed) => [
            headed ? 'headedPartCos' : 'partCos',
            schema.map((e) =>
              e.criteria.map((criterion) => {
                const parts = partsOf(criterion, headed);
                return parts.length > 0
                  ? encoder.embed(parts).map((v) => passageVectors.map((p) => r(cosine(v, p))))
                  : [];
              }),
            ),
          ]),
        ),
        ...(REGISTER
          ? {
              unpaged: texts.length === 1 && !sizes[0],
              register: registerProfile(texts, reading.language ?? 'en'),
              templateCos: templateVectors.map((t) => passageVectors.map((p) => r(cosine(t, p)))),
            }
          : {}),
        ...(EXTRA
          ? {
              passageLines: reading.passages.map((p) =>
                lineTexts.has(p.text) && !chunkTexts.has(p.text) ? 1 : 0,
              ),
              passageWords: reading.passages.map((p) => p.text.split(/\s+/u).length),
              labelCos: schema.map((e) =>
                encoder
                  .embed(EXTRA_LABELS.map((label) => label(nameOf(e.category))))
                  .map((v) => passageVectors.map((p) => r(cosine(v, p)))),
              ),
              descriptionCos: schema.map((e) => {
                const [v] = encoder.embed([`${nameOf(e.category)}: ${e.criteria.join('; ')}`]);
                return passageVectors.map((p) => r(cosine(v, p)));
              }),
            }
          : {}),
        formCos: statementVectors.map((vs) =>
          vs.map((v) => formVectors.map((p) => r(cosine(v, p)))),
        ),
      });
    }
  }
  console.log(`${set}: ${loaded.documents.length} documents`);
}
const dump: Dump = { inventory, schemas, rows, ...(REGISTER ? { registerSentences } : {}) };
fs.writeFileSync(file, JSON.stringify(dump));
console.log(`${rows.length} rows written to ${file}`);
