/**
 * Matrix products of the sentence encoder in WebAssembly SIMD (gemm.wat). The weights live
 * in the module's memory for the life of the process; each product copies its input rows in
 * and its output rows out, which costs 1/m of the product itself.
 */
import { GEMM_WASM_BASE64 } from './gemm.wasm.js';

/** A weight matrix held in WebAssembly memory: `rows` x `columns` float32. */
export interface ResidentMatrix {
  readonly offset: number;
  readonly rows: number;
  readonly columns: number;
}

const PAGE = 65_536;
const ROW_BLOCK = 4;
const COLUMN_BLOCK = 8;

type GemmFunction = (a: number, rows: number, k: number, w: number, m: number, out: number) => void;

/** The part of the WebAssembly API used here (the compiler's libraries do not declare it). */
interface WebAssemblyApi {
  Memory: new (descriptor: { initial: number }) => {
    buffer: ArrayBuffer;
    grow(pages: number): number;
  };
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object, imports: object) => { exports: Record<string, unknown> };
}
const { WebAssembly } = globalThis as unknown as { WebAssembly: WebAssemblyApi };

export class MatrixEngine {
  private readonly memory = new WebAssembly.Memory({ initial: 1 });
  private readonly gemm: GemmFunction;
  /** End of the resident weights; products use the memory above it as scratch. */
  private top = 0;

  constructor() {
    const module = new WebAssembly.Module(Buffer.from(GEMM_WASM_BASE64, 'base64'));
    const instance = new WebAssembly.Instance(module, { env: { memory: this.memory } });
    this.gemm = instance.exports.gemm as GemmFunction;
  }

  private ensure(bytes: number): Float32Array {
    const missing = bytes - this.memory.buffer.byteLength;
    if (missing > 0) this.memory.grow(Math.ceil(missing / PAGE));
    return new Float32Array(this.memory.buffer);
  }

  /** Copies a row-major `rows` x `columns` matrix into WebAssembly memory. */
  resident(data: Float32Array, rows: number, columns: number): ResidentMatrix {
    if (data.length !== rows * columns || columns % COLUMN_BLOCK !== 0) {
      throw new Error(`a resident matrix needs rows x columns values, columns a multiple of 8`);
    }
    const offset = this.top;
    this.ensure(offset + data.byteLength).set(data, offset / 4);
    this.top = offset + data.byteLength;
    return { offset, rows, columns };
  }

  /** out[rows x w.columns] += a[rows x w.rows] @ w. */
  multiplyAdd(a: Float32Array, rows: number, w: ResidentMatrix, out: Float32Array): void {
    const k = w.rows;
    const m = w.columns;
    const padded = Math.ceil(rows / ROW_BLOCK) * ROW_BLOCK;
    const inputAt = this.top;
    const outputAt = inputAt + padded * k * 4;
    const view = this.ensure(outputAt + padded * m * 4);
    view.set(a.subarray(0, rows * k), inputAt / 4);
    view.fill(0, inputAt / 4 + rows * k, outputAt / 4);
    view.set(out.subarray(0, rows * m), outputAt / 4);
    view.fill(0, outputAt / 4 + rows * m, outputAt / 4 + padded * m);
    this.gemm(inputAt, padded, k, w.offset, m, outputAt);
    out.set(view.subarray(outputAt / 4, outputAt / 4 + rows * m));
  }
}
