/**
 * Schema variations over the same evaluation documents, so a change that fits one wording or
 * one set of categories shows up as a gap between variants:
 * - `criteria`: the set's own criteria.json, written once before any scoring;
 * - `reworded`: criteria-alt.json, the same categories described again by another hand;
 * - `coarse`: three broad categories grouping those of both sets (unseen/schema-coarse.json);
 *   a document is right when the chosen broad category is the group of its own category;
 * - `fine`: every category of both sets plus distractor categories no document has
 *   (unseen/distractors.json), so each document competes with 20 or more labels.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { ClassificationCategory } from '../../src/documents/classify/classify.types.js';
import {
  readCriteria,
  repositoryRoot,
  setDirectory,
  type RealEvalSetName,
} from './classify-eval-real.js';

export type SchemaVariantName = 'criteria' | 'reworded' | 'coarse' | 'fine';
export const SCHEMA_VARIANTS: readonly SchemaVariantName[] = [
  'criteria',
  'reworded',
  'coarse',
  'fine',
];

export interface SchemaVariant {
  name: SchemaVariantName;
  schema: ClassificationCategory[];
  /** The label that counts as right for a document of `category`. */
  expected(category: string): string;
}

interface CoarseSchemaFile {
  schema: ClassificationCategory[];
  groups: Record<string, string[]>;
}

export function readCoarseSchema(root = repositoryRoot()): CoarseSchemaFile {
  return JSON.parse(
    fs.readFileSync(path.join(root, setDirectory('unseen'), 'schema-coarse.json'), 'utf8'),
  ) as CoarseSchemaFile;
}

/** Every category of both sets, then the distractors. */
export function fineSchema(root = repositoryRoot()): ClassificationCategory[] {
  const distractors = JSON.parse(
    fs.readFileSync(path.join(root, setDirectory('unseen'), 'distractors.json'), 'utf8'),
  ) as ClassificationCategory[];
  return [
    ...readCriteria('business', 'criteria.json', root),
    ...readCriteria('unseen', 'criteria.json', root),
    ...distractors,
  ];
}

/** The coarse group of each fine category; throws when a category is in no group or two. */
export function coarseGroupOf(groups: Record<string, string[]>): Map<string, string> {
  const groupOf = new Map<string, string>();
  for (const [group, members] of Object.entries(groups)) {
    for (const member of members) {
      if (groupOf.has(member)) throw new Error(`${member} is in two coarse groups`);
      groupOf.set(member, group);
    }
  }
  return groupOf;
}

export function schemaVariant(
  set: RealEvalSetName,
  name: SchemaVariantName,
  root = repositoryRoot(),
): SchemaVariant {
  const same = (category: string) => category;
  switch (name) {
    case 'criteria':
      return { name, schema: readCriteria(set, 'criteria.json', root), expected: same };
    case 'reworded':
      return { name, schema: readCriteria(set, 'criteria-alt.json', root), expected: same };
    case 'fine':
      return { name, schema: fineSchema(root), expected: same };
    case 'coarse': {
      const coarse = readCoarseSchema(root);
      const groupOf = coarseGroupOf(coarse.groups);
      return {
        name,
        schema: coarse.schema,
        expected: (category) => {
          const group = groupOf.get(category);
          if (!group) throw new Error(`${category} is in no coarse group`);
          return group;
        },
      };
    }
  }
}
