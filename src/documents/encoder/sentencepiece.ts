/**
 * SentencePiece unigram tokenizer for a `.model` file: the `nmt_nfkc` normalizer from the
 * model's precompiled character map (a darts-clone double-array trie walked as
 * sentencepiece's Normalizer::NormalizePrefix walks it), whitespace handling (dummy
 * prefix, U+2581 for spaces, extra spaces removed) and the unigram Viterbi segmentation.
 * Gives the same piece ids as the reference library for the sentence encoder's model
 * (checked against it by test vectors, see sentence-encoder.spec.ts).
 */

const UNK = 0;
const BOS = 1;
const EOS = 2;
const SPACE = [0xe2, 0x96, 0x81];

interface Field {
  start: number;
  length: number;
}

/** Length-delimited and 32-bit fields of one protobuf message, by field number. */
function parseFields(data: Uint8Array, start: number, end: number): Map<number, Field[]> {
  const fields = new Map<number, Field[]>();
  let pos = start;
  const varint = (): number => {
    let result = 0;
    let factor = 1;
    for (;;) {
      const byte = data[pos++];
      result += (byte & 0x7f) * factor;
      if (!(byte & 0x80)) return result;
      factor *= 128;
    }
  };
  const add = (field: number, value: Field) => {
    const list = fields.get(field) ?? [];
    list.push(value);
    fields.set(field, list);
  };
  while (pos < end) {
    const tag = varint();
    const field = Math.floor(tag / 8);
    const wire = tag & 7;
    if (wire === 0) varint();
    else if (wire === 1) pos += 8;
    else if (wire === 2) {
      const length = varint();
      add(field, { start: pos, length });
      pos += length;
    } else if (wire === 5) {
      add(field, { start: pos, length: 4 });
      pos += 4;
    } else break;
  }
  return fields;
}

/** The `nmt_nfkc` normalizer over the precompiled darts-clone character map. */
class Normalizer {
  private readonly units: Uint32Array;
  private readonly normalized: Uint8Array;
  private readonly replacements = new Map<number, Uint8Array>();

  constructor(charsmap: Uint8Array) {
    const view = new DataView(charsmap.buffer, charsmap.byteOffset, charsmap.byteLength);
    const trieSize = view.getUint32(0, true);
    this.units = new Uint32Array(trieSize / 4);
    for (let i = 0; i < this.units.length; i++) this.units[i] = view.getUint32(4 + i * 4, true);
    this.normalized = charsmap.subarray(4 + trieSize);
  }

  private replacement(value: number): Uint8Array {
    let bytes = this.replacements.get(value);
    if (!bytes) {
      const end = this.normalized.indexOf(0, value);
      bytes = this.normalized.subarray(value, end < 0 ? this.normalized.length : end);
      this.replacements.set(value, bytes);
    }
    return bytes;
  }

  /** The normalized bytes of the longest match at `data[pos..]`, and the bytes it consumed. */
  private prefix(data: Uint8Array, pos: number): [Uint8Array, number] {
    const units = this.units;
    let bestLength = 0;
    let bestValue = 0;
    if (units.length > 0) {
      let unit = units[0];
      let node = (unit >>> 10) << ((unit & 0x200) >>> 6);
      for (let i = pos; i < data.length;) {
        const c = data[i];
        node ^= c;
        unit = units[node];
        if ((unit & 0x800000ff) >>> 0 !== c) break;
        node ^= (unit >>> 10) << ((unit & 0x200) >>> 6);
        i++;
        if (unit & 0x100) {
          bestLength = i - pos;
          bestValue = units[node] & 0x7fffffff;
        }
      }
    }
    if (bestLength === 0 || bestValue >= this.normalized.length) {
      const first = data[pos];
      let length =
        first < 0x80
          ? 1
          : first >> 5 === 0x6
            ? 2
            : first >> 4 === 0xe
              ? 3
              : first >> 3 === 0x1e
                ? 4
                : 1;
      for (let k = 1; k < length; k++) {
        if (pos + k >= data.length || (data[pos + k] & 0xc0) !== 0x80) {
          length = 1;
          break;
        }
      }
      return [data.subarray(pos, pos + length), length];
    }
    return [this.replacement(bestValue), bestLength];
  }

  normalize(text: string): string {
    const raw = new TextEncoder().encode(text);
    let pos = 0;
    while (pos < raw.length) {
      const [piece, consumed] = this.prefix(raw, pos);
      if (!(piece.length === 1 && piece[0] === 0x20)) break;
      pos += consumed;
    }
    if (pos >= raw.length) return '';
    const out: number[] = [...SPACE];
    let previousSpace = true;
    while (pos < raw.length) {
      const [found, consumed] = this.prefix(raw, pos);
      pos += consumed;
      let piece = found;
      if (previousSpace) {
        let skip = 0;
        while (skip < piece.length && piece[skip] === 0x20) skip++;
        piece = piece.subarray(skip);
      }
      if (piece.length === 0) continue;
      for (const byte of piece) {
        if (byte === 0x20) out.push(...SPACE);
        else out.push(byte);
      }
      previousSpace = piece[piece.length - 1] === 0x20;
    }
    while (
      out.length >= 3 &&
      out[out.length - 3] === SPACE[0] &&
      out[out.length - 2] === SPACE[1] &&
      out[out.length - 1] === SPACE[2]
    ) {
      out.length -= 3;
    }
    return new TextDecoder().decode(Uint8Array.from(out));
  }
}

/** Unigram tokenizer of a SentencePiece model (legacy layout: pieces inline in field 1). */
export class SentencePieceTokenizer {
  /** Piece (and every prefix of a piece) -> piece id + 1, or 0 for a prefix only. */
  private readonly prefixes = new Map<string, number>();
  private readonly scores: Float32Array;
  private readonly unkScore: number;
  private readonly maxLength: number;
  private readonly normalizer: Normalizer;

  constructor(model: Uint8Array) {
    const top = parseFields(model, 0, model.length);
    const pieces = top.get(1) ?? [];
    this.scores = new Float32Array(pieces.length);
    const decoder = new TextDecoder();
    let maxLength = 1;
    let minScore = Infinity;
    pieces.forEach((field, id) => {
      const inner = parseFields(model, field.start, field.start + field.length);
      const text = inner.get(1)?.[0];
      const score = inner.get(2)?.[0];
      const piece = text
        ? decoder.decode(model.subarray(text.start, text.start + text.length))
        : '';
      const view = new DataView(model.buffer, model.byteOffset, model.byteLength);
      this.scores[id] = score ? view.getFloat32(score.start, true) : 0;
      minScore = Math.min(minScore, this.scores[id]);
      const points = Array.from(piece);
      maxLength = Math.max(maxLength, points.length);
      let prefix = '';
      for (let k = 0; k < points.length - 1; k++) {
        prefix += points[k];
        if (!this.prefixes.has(prefix)) this.prefixes.set(prefix, 0);
      }
      this.prefixes.set(piece, id + 1);
    });
    this.unkScore = minScore - 10;
    this.maxLength = maxLength;
    const trainer = top.get(3)?.[0];
    const charsmap = trainer
      ? parseFields(model, trainer.start, trainer.start + trainer.length).get(2)?.[0]
      : undefined;
    this.normalizer = new Normalizer(
      charsmap
        ? model.subarray(charsmap.start, charsmap.start + charsmap.length)
        : new Uint8Array(4),
    );
  }

  /** Piece ids of `text`, with the begin and end of sentence ids around them. */
  encode(text: string): number[] {
    const normalized = this.normalizer.normalize(text);
    return [BOS, ...(normalized ? this.viterbi(Array.from(normalized)).ids : [UNK]), EOS];
  }

  /**
   * Log-probability of `text` under its best segmentation: the sum of its pieces' scores,
   * which the unigram model learned as log-probabilities over its training corpus (a word
   * is read with its word-start marker, as in running text). -Infinity for empty text.
   */
  logProbability(text: string): number {
    const normalized = this.normalizer.normalize(text);
    return normalized ? this.viterbi(Array.from(normalized)).score : -Infinity;
  }

  /**
   * The best segmentation: for every position, the best-scoring piece ending there (the
   * earliest-starting on ties, as the reference lattice does), an unknown-piece node of one
   * character where no one-character piece matches.
   */
  private viterbi(chars: string[]): { ids: number[]; score: number } {
    const length = chars.length;
    const best = new Float64Array(length + 1).fill(-1e38);
    best[0] = 0;
    const startOf = new Int32Array(length + 1);
    const pieceOf = new Int32Array(length + 1);
    for (let i = 0; i < length; i++) {
      const base = best[i];
      const stop = Math.min(length, i + this.maxLength);
      let single = false;
      let text = '';
      for (let j = i + 1; j <= stop; j++) {
        text += chars[j - 1];
        const value = this.prefixes.get(text);
        if (value === undefined) break;
        if (value > 0) {
          const score = base + this.scores[value - 1];
          if (score > best[j]) {
            best[j] = score;
            startOf[j] = i;
            pieceOf[j] = value - 1;
          }
          if (j === i + 1) single = true;
        }
      }
      if (!single) {
        const score = base + this.unkScore;
        if (score > best[i + 1]) {
          best[i + 1] = score;
          startOf[i + 1] = i;
          pieceOf[i + 1] = UNK;
        }
      }
    }
    const ids: number[] = [];
    for (let p = length; p > 0; p = startOf[p]) ids.push(pieceOf[p]);
    return { ids: ids.length > 0 ? ids.reverse() : [UNK], score: best[length] };
  }
}
