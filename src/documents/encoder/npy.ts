/** Reader of NumPy `.npy` arrays (format versions 1-3, little-endian, C order). */

type NpyData = Float32Array | Float64Array | Uint8Array | Int8Array;

export interface NpyArray {
  shape: number[];
  data: NpyData;
}

const MAGIC = '\x93NUMPY';

function typedArray(descr: string, bytes: Uint8Array): NpyData {
  // Bytes are read in place (the 65 MB embedding table is never copied); wider elements are
  // copied into an aligned buffer of their own, since the data may start at any offset.
  if (descr === '|u1') return bytes;
  const copy = new Uint8Array(bytes);
  switch (descr) {
    case '<f4':
      return new Float32Array(copy.buffer);
    case '<f8':
      return new Float64Array(copy.buffer);
    case '|i1':
      return new Int8Array(copy.buffer);
    default:
      throw new Error(`unsupported .npy element type ${descr}`);
  }
}

/** Parses one `.npy` file's bytes; throws a clear error on anything else. */
export function parseNpy(file: Uint8Array, name = 'array'): NpyArray {
  const magic = String.fromCharCode(...file.subarray(0, 6));
  if (magic !== MAGIC) throw new Error(`${name} is not a .npy file`);
  const view = new DataView(file.buffer, file.byteOffset, file.byteLength);
  const major = file[6];
  const headerLength = major === 1 ? view.getUint16(8, true) : view.getUint32(8, true);
  const headerStart = major === 1 ? 10 : 12;
  const header = new TextDecoder().decode(file.subarray(headerStart, headerStart + headerLength));
  const descr = /'descr':\s*'([^']+)'/.exec(header)?.[1];
  const fortran = /'fortran_order':\s*(True|False)/.exec(header)?.[1];
  const shapeText = /'shape':\s*\(([^)]*)\)/.exec(header)?.[1];
  if (!descr || fortran !== 'False' || shapeText === undefined) {
    throw new Error(`${name}: unsupported .npy header ${header.trim()}`);
  }
  const shape = shapeText
    .split(',')
    .map((part) => part.trim())
    .filter((part) => part.length > 0)
    .map(Number);
  const data = typedArray(descr, file.subarray(headerStart + headerLength));
  const expected = shape.reduce((product, size) => product * size, 1);
  if (data.length !== expected) {
    throw new Error(`${name}: ${data.length} values for shape (${shape.join(', ')})`);
  }
  return { shape, data };
}
