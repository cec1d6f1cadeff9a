/** Types of build-gemm-wasm.mjs for the spec that checks gemm.wasm.ts is up to date. */
export function compileGemm(): Promise<Buffer>;
export function moduleSource(bytes: Buffer): string;
