import { pipeline, Readable } from 'node:stream';
import zlib from 'node:zlib';

/**
 * Zstandard bodies (RFC 8878) decoded frame by frame. Node's zstd decoder stops at the end
 * of the first frame and drops what follows without an error (a second frame, or the
 * document after a leading skippable frame, is lost), and ends a body cut inside a frame
 * quietly with what it decoded so far, where gzip's and brotli's decoders report both. So
 * the body is walked by its frame headers (no decoding), each zstd frame decoded by a
 * decoder of its own, skippable frames left out, and a body ending inside a frame refused.
 */

const ZSTD_MAGIC = 0xfd2fb528;
/** Skippable frames: magic numbers 0x184D2A50 to 0x184D2A5F, then their size in 4 bytes. */
const SKIPPABLE_MAGIC = 0x184d2a50;
const RLE_BLOCK = 1;
const RESERVED_BLOCK = 3;

/**
 * The most bytes of skippable frames one body may hold. They decode to nothing, so the size
 * cap, which counts decoded bytes, would not stop a body of them; real ones carry a few
 * bytes of metadata (pzstd's frame sizes: 12).
 */
export const MAX_SKIPPABLE_BYTES = 2 ** 20;

/** A zstd body whose skippable frames hold more than `MAX_SKIPPABLE_BYTES`. */
export class ZstdSkippableFramesError extends Error {
  constructor() {
    super(`the zstd stream's skippable frames hold more than ${MAX_SKIPPABLE_BYTES} bytes`);
  }
}

/** A zstd body that ended inside a frame; read by the fetch as a body that does not decode. */
export class TruncatedZstdFrameError extends Error {
  constructor(readonly bytesRead: number) {
    super(`the zstd stream ends inside a frame after ${bytesRead} bytes`);
  }
}

/**
 * Bytes of one frame: a zstd frame, a skippable one, or bytes that begin with no frame's
 * magic number (left to a decoder, which refuses them). `ends` when the frame ends with them.
 */
interface Segment {
  kind: 'zstd' | 'skippable' | 'unknown';
  bytes: Buffer;
  ends: boolean;
}

type Field = 'magic' | 'descriptor' | 'block header' | 'skippable size';

/** Bytes of each header field: numbers 4, the frame header descriptor 1, a block header 3. */
const FIELD_BYTES: Record<Field, number> = {
  magic: 4,
  descriptor: 1,
  'block header': 3,
  'skippable size': 4,
};

/** Where the walk stands: a header field being read, or bytes skipped before the next one. */
class FrameWalk {
  private kind: Segment['kind'] | null = null;
  private field: Field = 'magic';
  private readonly fieldBytes: number[] = [];
  private skip = 0;
  private afterSkip: Field = 'magic';
  private checksum = false;
  /** The bytes of a magic number begun in an earlier chunk, its frame's kind not known yet. */
  private carried = Buffer.alloc(0);
  private read = 0;

  /** `chunk` cut where its frames begin and end. */
  feed(chunk: Buffer): Segment[] {
    const segments: Segment[] = [];
    let start = 0;
    let at = 0;
    const cut = (ends: boolean) => {
      const bytes = Buffer.concat([this.carried, chunk.subarray(start, at)]);
      this.carried = Buffer.alloc(0);
      if (bytes.length > 0 || ends) segments.push({ kind: this.kind!, bytes, ends });
      start = at;
      if (ends) this.kind = null;
    };
    while (at < chunk.length) {
      if (this.kind === 'unknown') {
        at = chunk.length;
        break;
      }
      if (this.skip > 0) {
        const skipped = Math.min(this.skip, chunk.length - at);
        this.skip -= skipped;
        at += skipped;
        if (this.skip === 0) this.field = this.afterSkip;
      } else {
        this.fieldBytes.push(chunk[at++]);
        if (this.fieldBytes.length === FIELD_BYTES[this.field]) this.take();
      }
      if (this.inFrame() && this.betweenFrames()) cut(true);
    }
    this.read += chunk.length;
    if (this.kind !== null) cut(false);
    else this.carried = Buffer.concat([this.carried, chunk.subarray(start)]);
    return segments;
  }

  /** True when the bytes fed end between frames (or where no frame began: a decoder refuses those). */
  get whole(): boolean {
    return this.kind === 'unknown' || (this.kind === null && this.carried.length === 0);
  }

  get bytesRead(): number {
    return this.read;
  }

  /** In a zstd or skippable frame: `take` may have just begun one, or found no frame. */
  private inFrame(): boolean {
    return this.kind === 'zstd' || this.kind === 'skippable';
  }

  private betweenFrames(): boolean {
    return this.field === 'magic' && this.skip === 0 && this.fieldBytes.length === 0;
  }

  private take(): void {
    const value = this.fieldBytes.reduce((n, byte, i) => n + byte * 2 ** (8 * i), 0);
    this.fieldBytes.length = 0;
    switch (this.field) {
      case 'magic':
        if (value === ZSTD_MAGIC) {
          this.kind = 'zstd';
          this.field = 'descriptor';
        } else if (value >= SKIPPABLE_MAGIC && value <= SKIPPABLE_MAGIC + 0x0f) {
          this.kind = 'skippable';
          this.field = 'skippable size';
        } else this.kind = 'unknown';
        return;
      case 'skippable size':
        return this.skipThen(value, 'magic');
      case 'descriptor': {
        const singleSegment = (value >> 5) & 1;
        this.checksum = ((value >> 2) & 1) === 1;
        const windowBytes = singleSegment ? 0 : 1;
        const dictionaryBytes = [0, 1, 2, 4][value & 3];
        const contentSizeBytes = [singleSegment, 2, 4, 8][value >> 6];
        return this.skipThen(windowBytes + dictionaryBytes + contentSizeBytes, 'block header');
      }
      case 'block header': {
        const type = (value >> 1) & 3;
        if (type === RESERVED_BLOCK) {
          this.kind = 'unknown';
          return;
        }
        const content = type === RLE_BLOCK ? 1 : Math.floor(value / 8);
        if ((value & 1) === 0) return this.skipThen(content, 'block header');
        return this.skipThen(content + (this.checksum ? 4 : 0), 'magic');
      }
    }
  }

  private skipThen(bytes: number, next: Field): void {
    this.skip = bytes;
    this.afterSkip = next;
    if (bytes === 0) this.field = next;
  }
}

/**
 * `encoded` decoded as it streams, each zstd frame by a decoder of its own (a window of at
 * most 2^`windowLogMax` bytes), skippable frames left out (`MAX_SKIPPABLE_BYTES` of them at
 * most); throws `TruncatedZstdFrameError` when the body ends inside a frame.
 */
export async function* zstdFramesDecoded(
  encoded: AsyncIterable<Buffer>,
  windowLogMax: number,
): AsyncGenerator<Buffer> {
  const walk = new FrameWalk();
  const segments = (async function* () {
    for await (const chunk of encoded) yield* walk.feed(chunk);
    if (!walk.whole) throw new TruncatedZstdFrameError(walk.bytesRead);
  })();
  let pending = await segments.next();
  let skipped = 0;
  // The bytes of the frame `pending` begins, up to its end; the body's end (or its error) comes with its last frame.
  async function* frame(): AsyncGenerator<Buffer> {
    while (!pending.done) {
      const segment = pending.value;
      pending = await segments.next();
      yield segment.bytes;
      if (segment.ends) return;
    }
  }
  try {
    while (!pending.done) {
      if (pending.value.kind === 'skippable') {
        for await (const bytes of frame()) {
          skipped += bytes.length;
          if (skipped > MAX_SKIPPABLE_BYTES) throw new ZstdSkippableFramesError();
        }
        continue;
      }
      const decoder = zlib.createZstdDecompress({
        params: { [zlib.constants.ZSTD_d_windowLogMax]: windowLogMax },
      });
      // The decoder ends with the error of either side: the body's (a reset, a cut) or its own.
      yield* pipeline(Readable.from(frame()), decoder, () => undefined) as AsyncIterable<Buffer>;
    }
  } finally {
    await segments.return(undefined);
  }
}
