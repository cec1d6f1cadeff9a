/**
 * Reading evidence dumps (evidence-dump.ts writes them) back for a replay: the dumps of
 * several runs pooled, and each row's evidence in the shape the service's fusion takes.
 */
import fs from 'node:fs';
import type { CategoryEvidence } from '../../src/documents/classify/evidence.js';
import type { EvidenceRow } from './evidence-dump.js';

export interface EvidenceDump {
  schemas: Record<string, { categories: string[]; criteria: string[][] }>;
  rows: EvidenceRow[];
}

/** The dumps in `files`, pooled: every row, and every schema they were scored under. */
export function readEvidenceDumps(files: readonly string[]): EvidenceDump {
  const dump: EvidenceDump = { schemas: {}, rows: [] };
  for (const file of files) {
    const part = JSON.parse(fs.readFileSync(file, 'utf8')) as EvidenceDump;
    Object.assign(dump.schemas, part.schemas);
    dump.rows.push(...part.rows);
  }
  return dump;
}

/** A row's evidence per category, as the service's fusion reads it (no passage cosine kept). */
export function evidenceOf(row: EvidenceRow): CategoryEvidence[] {
  const read = ([semantic, lexical, layout, opening]: number[]) => ({
    semantic,
    lexical,
    layout,
    opening,
    passage: -1,
  });
  return row.evidence.map(([label, ...criteria], c) => ({
    label: read(label),
    criteria: criteria.map(read),
    votes: row.votes?.[c],
    pageVotes: row.pageVotes?.[c],
  }));
}
