import { describe, expect, it } from '@jest/globals';
import fs from 'node:fs';
import path from 'node:path';
import { compileGemm, moduleSource } from '../../../scripts/build-gemm-wasm.mjs';
import { MatrixEngine } from './gemm.js';

function naive(
  a: Float32Array,
  rows: number,
  w: Float32Array,
  k: number,
  m: number,
  out: Float32Array,
) {
  for (let r = 0; r < rows; r++) {
    for (let j = 0; j < m; j++) {
      let sum = out[r * m + j];
      for (let i = 0; i < k; i++) sum += a[r * k + i] * w[i * m + j];
      out[r * m + j] = sum;
    }
  }
}

function random(length: number, seed: number): Float32Array {
  let state = seed;
  return Float32Array.from({ length }, () => {
    state = (state * 1_103_515_245 + 12_345) % 2_147_483_648;
    return state / 1_073_741_824 - 1;
  });
}

describe(MatrixEngine.name, () => {
  it('gemm.wasm.ts is gemm.wat compiled (run scripts/build-gemm-wasm.mjs after editing it)', async () => {
    const generated = fs.readFileSync(path.resolve('src/documents/encoder/gemm.wasm.ts'), 'utf8');
    expect(generated).toBe(moduleSource(await compileGemm()));
  });

  it.each([
    [1, 8, 8],
    [5, 16, 24],
    [13, 40, 320],
    [4, 1280, 256],
  ])('adds a %i x %i by %i x ... product as plain loops do', (rows, k, m) => {
    const engine = new MatrixEngine();
    const w = random(k * m, 7);
    const a = random(rows * k, 11);
    const expected = random(rows * m, 13);
    const got = expected.slice();
    naive(a, rows, w, k, m, expected);
    const resident = engine.resident(w, k, m);
    engine.multiplyAdd(a, rows, resident, got);
    got.forEach((value, i) => expect(value).toBeCloseTo(expected[i], 3));
  });
});
