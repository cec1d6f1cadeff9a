import crypto from 'node:crypto';
import zlib from 'node:zlib';
import { describe, expect, it } from '@jest/globals';
import { TruncatedZstdFrameError, zstdFramesDecoded } from './zstd-frames.js';

/** `body` in chunks of `sizes` (cycled), as a network might deliver it. */
async function* inChunks(body: Buffer, sizes: number[]): AsyncGenerator<Buffer> {
  for (let at = 0, i = 0; at < body.length; i++) {
    const size = sizes[i % sizes.length];
    yield body.subarray(at, at + size);
    at += size;
  }
}

async function decoded(body: Buffer, sizes = [body.length || 1]): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of zstdFramesDecoded(inChunks(body, sizes), 23)) chunks.push(chunk);
  return Buffer.concat(chunks);
}

const skippable = (content: string) => {
  const bytes = Buffer.from(content);
  const header = Buffer.alloc(8);
  header.writeUInt32LE(0x184d2a5a, 0);
  header.writeUInt32LE(bytes.length, 4);
  return Buffer.concat([header, bytes]);
};

describe('zstdFramesDecoded', () => {
  const first = Buffer.concat([crypto.randomBytes(3_000), Buffer.alloc(5_000, 'a')]);
  const second = Buffer.from('the second frame '.repeat(200));
  const withChecksum = { params: { [zlib.constants.ZSTD_c_checksumFlag]: 1 } };
  const frames = [
    skippable('metadata'),
    zlib.zstdCompressSync(first, withChecksum),
    skippable(''),
    zlib.zstdCompressSync(second),
    zlib.zstdCompressSync(Buffer.alloc(0)),
  ];
  const body = Buffer.concat(frames);
  const content = Buffer.concat([first, second]);

  it('decodes every frame and leaves skippable ones out, however the body is cut in chunks', async () => {
    for (const sizes of [[1], [2], [3], [5, 1], [7, 3, 1], [4096]]) {
      expect((await decoded(body, sizes)).equals(content)).toBe(true);
    }
  });

  it('refuses a body cut anywhere inside a frame, never answering it shorter', async () => {
    // Frame boundaries: the only places a cut body is whole.
    const ends = new Set<number>();
    let boundary = 0;
    for (const frame of frames) ends.add((boundary += frame.length));
    for (let length = 1; length < body.length; length++) {
      const outcome = await decoded(body.subarray(0, length), [997]).then(
        (bytes) => ({ whole: true, bytes }),
        (error: unknown) => ({ whole: false, error }),
      );
      if (ends.has(length)) {
        expect({ length, whole: outcome.whole }).toEqual({ length, whole: true });
      } else {
        expect({ length, whole: outcome.whole }).toEqual({ length, whole: false });
        const { error } = outcome as { error: Error & { code?: string } };
        expect(
          error instanceof TruncatedZstdFrameError || /^ZSTD_error_/.test(error.code ?? ''),
        ).toBe(true);
      }
    }
  });

  it('reads an empty body as empty', async () => {
    expect(await decoded(Buffer.alloc(0))).toHaveLength(0);
  });
});
