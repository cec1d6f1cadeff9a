import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ProcessingError } from '../core/processing-error.js';
import {
  MAX_SKIPPABLE_BYTES,
  TruncatedZstdFrameError,
  ZstdSkippableFramesError,
  zstdFramesDecoded,
} from './zstd-frames.js';

/**
 * What a document fetch sends as Accept-Encoding: exactly the codings decoded here. Without
 * the header any coding is acceptable to a server (RFC 9110).
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

/**
 * The largest zstd window decoded, as a power of two: 8 MiB, the most the zstd content
 * coding may use (RFC 9659), so a frame cannot make a decoder hold more (zstd's own default
 * allows 128 MiB). A frame asking for more is refused.
 */
const ZSTD_WINDOW_LOG_MAX = 23;

/** Coding names (lower case) and the decoding of each, as the body streams. */
const DECODINGS: Record<string, BodyStage> = {
  gzip: (encoded) => decodedBy(() => zlib.createGunzip(), encoded),
  'x-gzip': (encoded) => decodedBy(() => zlib.createGunzip(), encoded),
  // "deflate" is the zlib format, but servers long sent raw deflate under that name.
  deflate: (encoded) =>
    decodedBy(
      (head) => (isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw()),
      encoded,
    ),
  br: (encoded) => decodedBy(() => zlib.createBrotliDecompress(), encoded),
  zstd: (encoded) => zstdFramesDecoded(encoded, ZSTD_WINDOW_LOG_MAX),
};

/** More codings stacked than any server applies: each decoder holds its own window. */
const MAX_STACKED_CODINGS = 4;

/** A stage of a stream pipeline: bytes in, bytes out. */
export type BodyStage = (source: AsyncIterable<Buffer>) => AsyncIterable<Buffer>;

/**
 * The codings of a response's Content-Encoding, in the order the server applied them
 * (`identity` left out), or 400 `INPUT_ENCODING_UNSUPPORTED` naming one not decoded here.
 */
export function contentCodingsOf(header: string | string[] | undefined, host: string): string[] {
  const listed = [header ?? []]
    .flat()
    .flatMap((value) => value.split(','))
    .map((coding) => coding.trim().toLowerCase())
    .filter((coding) => coding !== '' && coding !== 'identity');
  const unknown = listed.find((coding) => !Object.hasOwn(DECODINGS, coding));
  if (unknown !== undefined) {
    throw new ProcessingError(
      'INPUT_ENCODING_UNSUPPORTED',
      `Fetching ${host} answered with Content-Encoding ${JSON.stringify(unknown.slice(0, 50))}, ` +
        `which is not decoded here (${Object.keys(DECODINGS).join(', ')} are)`,
      400,
    );
  }
  if (listed.length > MAX_STACKED_CODINGS) {
    throw new ProcessingError(
      'INPUT_ENCODING_UNSUPPORTED',
      `Fetching ${host} answered with ${listed.length} content codings stacked ` +
        `(at most ${MAX_STACKED_CODINGS} are decoded)`,
      400,
    );
  }
  return listed;
}

/**
 * The stage undoing `codings`, the last applied first, as the body streams: the decoded
 * bytes reach the caller's size count before more is decoded, so a bomb stops at the limit.
 */
export function decodingStage(codings: readonly string[]): BodyStage {
  return async function* decoded(source) {
    yield* codings.reduceRight<AsyncIterable<Buffer>>(
      (encoded, coding) => DECODINGS[coding](encoded),
      source,
    );
  };
}

/**
 * 400 `INPUT_ENCODING_CORRUPT` when `error` is a decoder's (a body that does not decode as
 * its Content-Encoding says), else null.
 */
export function corruptEncodingError(
  error: unknown,
  host: string,
  codings: readonly string[],
): ProcessingError | null {
  if (isDecoderError(error) && error.code === 'ZSTD_error_frameParameter_windowTooLarge') {
    return new ProcessingError(
      'INPUT_ENCODING_UNSUPPORTED',
      `Fetching ${host} answered a zstd body whose window is larger than ` +
        `${2 ** (ZSTD_WINDOW_LOG_MAX - 20)} MiB, the most the zstd content coding may use (RFC 9659)`,
      400,
    );
  }
  if (error instanceof ZstdSkippableFramesError) {
    return new ProcessingError(
      'INPUT_ENCODING_UNSUPPORTED',
      `Fetching ${host} answered a zstd body whose skippable frames hold more than ` +
        `${MAX_SKIPPABLE_BYTES} bytes: they decode to nothing, so the size limit could not bound them`,
      400,
    );
  }
  if (!isDecoderError(error) && !(error instanceof TruncatedZstdFrameError)) return null;
  return new ProcessingError(
    'INPUT_ENCODING_CORRUPT',
    `Fetching ${host} answered a body that does not decode as its Content-Encoding ` +
      `${codings.join(', ')} says: ${error.message}`,
    400,
  );
}

/** `encoded` undone by `decoder` as it streams; an empty body stays empty (nothing was encoded). */
async function* decodedBy(
  decoder: (head: Buffer) => NodeJS.ReadWriteStream,
  encoded: AsyncIterable<Buffer>,
): AsyncGenerator<Buffer> {
  const chunks = encoded[Symbol.asyncIterator]();
  let head = Buffer.alloc(0);
  try {
    // Two bytes tell a zlib header from raw deflate.
    while (head.length < 2) {
      const next = await chunks.next();
      if (next.done) break;
      head = Buffer.concat([head, next.value]);
    }
    if (head.length === 0) return;
    async function* whole(): AsyncGenerator<Buffer> {
      yield head;
      for (let next = await chunks.next(); !next.done; next = await chunks.next()) {
        yield next.value;
      }
    }
    // The decoder ends with the error of either side: the body's (a reset) or its own.
    yield* pipeline(
      Readable.from(whole()),
      decoder(head),
      () => undefined,
    ) as AsyncIterable<Buffer>;
  } finally {
    await chunks.return?.();
  }
}

/** RFC 1950: compression method 8 and a header check making the first two bytes a multiple of 31. */
function isZlibHeader(head: Buffer): boolean {
  return head.length >= 2 && (head[0] & 0x0f) === 8 && ((head[0] << 8) | head[1]) % 31 === 0;
}

/**
 * zlib reports its failures with `Z_` codes, brotli with `ERR__ERROR_` ones, zstd with
 * `ZSTD_error_` ones, each with an errno. Read by shape: an error made by Node's own realm
 * is no `instanceof` of another's.
 */
function isDecoderError(error: unknown): error is { message: string; code: string } {
  const { code, errno, message } = (error ?? {}) as Record<string, unknown>;
  return (
    typeof errno === 'number' &&
    typeof message === 'string' &&
    typeof code === 'string' &&
    /^(Z_|ERR__ERROR_|ZSTD_error_)/.test(code)
  );
}
