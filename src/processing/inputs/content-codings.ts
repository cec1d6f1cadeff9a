import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';
import { ProcessingError } from '../core/processing-error.js';

/**
 * What a document fetch sends as Accept-Encoding: exactly the codings decoded here. Without
 * the header any coding is acceptable to a server (RFC 9110), zstd included.
 */
export const ACCEPT_ENCODING = 'gzip, deflate, br';

/** Coding names (lower case) and the decoder of each; `head` is the body's first bytes. */
const DECODERS: Record<string, (head: Buffer) => NodeJS.ReadWriteStream> = {
  gzip: () => zlib.createGunzip(),
  'x-gzip': () => zlib.createGunzip(),
  // "deflate" is the zlib format, but servers long sent raw deflate under that name.
  deflate: (head) => (isZlibHeader(head) ? zlib.createInflate() : zlib.createInflateRaw()),
  br: () => zlib.createBrotliDecompress(),
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
  const unknown = listed.find((coding) => !Object.hasOwn(DECODERS, coding));
  if (unknown !== undefined) {
    throw new ProcessingError(
      'INPUT_ENCODING_UNSUPPORTED',
      `Fetching ${host} answered with Content-Encoding ${JSON.stringify(unknown.slice(0, 50))}, ` +
        `which is not decoded here (${Object.keys(DECODERS).join(', ')} are)`,
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
      (encoded, coding) => decodedBy(DECODERS[coding], encoded),
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
  if (!isDecoderError(error)) return null;
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
 * zlib reports its failures with `Z_` codes, brotli with `ERR__ERROR_` ones, both with an
 * errno. Read by shape: an error made by Node's own realm is no `instanceof` of another's.
 */
function isDecoderError(error: unknown): error is { message: string } {
  const { code, errno, message } = (error ?? {}) as Record<string, unknown>;
  return (
    typeof errno === 'number' &&
    typeof message === 'string' &&
    typeof code === 'string' &&
    /^(Z_|ERR__ERROR_)/.test(code)
  );
}
