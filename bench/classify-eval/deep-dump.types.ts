/**
 * What deep-dump.ts writes and the trials replay (deep-trial, hubness-trial,
 * aggregation-trial): one row per document and schema variant, the cosines of every
 * statement of its schema with what the document's reading holds.
 */
import fs from 'node:fs';
import type { RegisterProfile } from '../../src/documents/classify/register.js';

/** A statement's evidence as the service gathered it, and the passage of its semantic part. */
export type Evidence = [
  semantic: number,
  lexical: number,
  layout: number,
  opening: number,
  at: number,
];

export interface DumpRow {
  set: string;
  variant: string;
  id: string;
  language?: string;
  pages: number;
  expected: number;
  defaultScores: number[];
  firstScores: number[];
  shippedScores: number[];
  /** Per category: [name, ...criteria]. */
  evidence: Evidence[][];
  votes: number[];
  pageVotes: number[];
  form: readonly string[];
  passagePages: number[];
  inDefault: number[];
  /** Per category, per statement ([name, ...criteria]): cosines with every passage. */
  cos: number[][][];
  /** The same with each page read whole. */
  pageCos: number[][][];
  /** The same with each sentence of the document's form. */
  formCos: number[][][];
  /** With `--parts`: per category, per criterion, per part (none for one part): cosines. */
  partCos?: number[][][][];
  /** The same, with the text before a colon in front of each item after it. */
  headedPartCos?: number[][][][];
  /** With `--register`: one page of a size the reader does not know (its form assumed). */
  unpaged?: boolean;
  /** With `--register`: how the document addresses its reader (register.ts). */
  register?: RegisterProfile;
  /** With `--register`: per template (deep-dump's TEMPLATES), cosines with every passage. */
  templateCos?: number[][];
  /** With `--extra`: per passage, 1 for a single line, 0 for a chunk or metadata. */
  passageLines?: number[];
  /** With `--extra`: per passage, its words. */
  passageWords?: number[];
  /** With `--extra`: per category, per other wording of its name (EXTRA_LABELS), per passage. */
  labelCos?: number[][][];
  /** With `--extra`: per category, its name and criteria read as one text, per passage. */
  descriptionCos?: number[][];
}

export interface DumpSchema {
  categories: string[];
  statementCosines: number[][];
  inventoryCosines: number[][][];
  /** With `--register`: per category, per statement, cosines with each register sentence. */
  registerCosines?: number[][][];
}

export interface Dump {
  /** Every sentence describeLayout can say of a document. */
  inventory: string[];
  schemas: Record<string, DumpSchema>;
  rows: DumpRow[];
  /** With `--register`: REGISTER_SENTENCES. */
  registerSentences?: string[];
}

/** The length sentences of record 0465's trial, by the most words each describes. */
export const LENGTH_SENTENCES: [number, string][] = [
  [150, 'A very short text of a few lines.'],
  [600, 'A short text of a few paragraphs.'],
  [3000, 'A text of some length, in several sections.'],
  [Infinity, 'A long text of many sections.'],
];

/** What length-dump.ts writes. */
export interface LengthDump {
  /** Per `${set}/${id}`: words, or absent when the document has pages. */
  unpaged: Record<string, number>;
  /** Per `${set}/${variant}`, per category, per statement: cosines with each length sentence. */
  cosines: Record<string, number[][][]>;
}

/**
 * The first phrasing of the register traits' sentences measured (record 0544): second person,
 * first person singular, first person plural, questions, and none of the persons (the
 * impersonal sentence). The second phrasing (register-phrasing-dump.ts) is the record's.
 */
export const REGISTER_SENTENCES = [
  'Written to the reader, addressing them directly as you.',
  'Written in the first person by one writer, as I.',
  'Written in the first person plural, as we.',
  'Many of its sentences are questions.',
  'Impersonal text in the third person, never addressing the reader.',
] as const;

export function readDump(file: string): Dump {
  return JSON.parse(fs.readFileSync(file, 'utf8')) as Dump;
}

/** The dump named by a trial's first argument; without one, `usage` is printed and it exits. */
export function readDumpArgument(usage: string): Dump {
  const file = process.argv[2];
  if (!file) {
    console.log(`usage: ${usage}`);
    process.exit(2);
  }
  return readDump(file);
}
