import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { Readable, Transform } from 'node:stream';
import { pipeline } from 'node:stream/promises';

/** What a write stored: the size and SHA-256 the database keeps beside the key. */
export interface StoredBlob {
  key: string;
  bytes: number;
  sha256: string;
}

/**
 * Where payloads live (uploaded documents, job results, large stored payloads): the
 * database keeps their key, size and hash, never their bytes. A key is a relative path of
 * `[A-Za-z0-9._-]` segments. Every write is all or nothing: a reader sees the whole
 * payload under its key, or nothing.
 */
export abstract class BlobStore {
  /** Stores `source` under `key`, replacing what was there; a failed write leaves nothing. */
  abstract write(key: string, source: Buffer | AsyncIterable<Buffer>): Promise<StoredBlob>;
  /** The payload under `key`; rejects with a BlobNotFoundError when there is none. */
  abstract read(key: string): Promise<Buffer>;
  /** The blob's size in bytes (BlobNotFoundError when absent), without reading it. */
  abstract size(key: string): Promise<number>;
  /**
   * The payload under `key` as a stream, opened before it resolves (so a missing one
   * rejects with a BlobNotFoundError here, not in the middle of an answer).
   */
  abstract open(key: string): Promise<Readable>;
  /** Removes the payloads; keys without one are ignored. */
  abstract delete(keys: readonly string[]): Promise<void>;
  /** Every complete payload's key under `prefix` (a folder key, '' for all). */
  abstract list(prefix: string): Promise<string[]>;
  /** Whether the payload under `key` was written before `epochMs` (false when there is none). */
  abstract writtenBefore(key: string, epochMs: number): Promise<boolean>;
  /** Removes what interrupted writes left (a crash mid-write); how many were removed. */
  abstract removeUnfinishedWrites(): Promise<number>;
  /** The folder `stagingName`s are relative to, as this process sees it. */
  abstract readonly stagingRoot: string;
  /**
   * A new name beside `key` (relative to `stagingRoot`) under which another process (an
   * executor) may write a payload meant for `key`, until `adopt` or `compose` takes it. A
   * staged payload outlives a restart (a Redis worker's report may still name it); what
   * nothing will take is removed by `discardStaged` (the start-up sweep: `listStaged`).
   */
  abstract stagingName(key: string): string;
  /** Moves a staged payload into place under `key`, whole. */
  abstract adopt(staged: string, key: string): Promise<void>;
  /**
   * Stores under `key` the concatenation of `parts` (buffers, and staged payloads streamed,
   * never held whole); the staged payloads stay until `discardStaged`.
   */
  abstract compose(key: string, parts: readonly (Buffer | StagedPart)[]): Promise<StoredBlob>;
  /** Removes staged payloads (names without a file are ignored). */
  abstract discardStaged(names: readonly string[]): Promise<void>;
  /** Every staged payload: its name and the key it was staged for. */
  abstract listStaged(): Promise<{ name: string; key: string }[]>;
}

/** A staged payload (`BlobStore.stagingName`) as a part of `compose`. */
export interface StagedPart {
  staged: string;
}

export class BlobNotFoundError extends Error {
  constructor(readonly key: string) {
    super(`No stored payload ${key}`);
    this.name = 'BlobNotFoundError';
  }
}

const KEY = /^[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}(\/[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}){0,7}$/;
/**
 * Interrupted writes: `.<name>.<uuid>.part` beside where the payload would have gone, and
 * `<file_id>.<uuid>.part` of uploads written before this store.
 */
const UUID = '[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}';
const PARTIAL = new RegExp(`^\\..+\\.${UUID}\\.part$|^${UUID}\\.[a-z0-9]{1,16}\\.${UUID}\\.part$`);
/** A staged payload's name: `.<name>.<uuid>.staged` in a folder of keys. */
const STAGED = new RegExp(
  `^(?:[A-Za-z0-9_-][A-Za-z0-9._-]{0,199}/){0,7}\\.[A-Za-z0-9._-]{1,240}\\.${UUID}\\.staged$`,
);

function assertBlobKey(key: string): void {
  if (!KEY.test(key)) throw new Error(`invalid blob key ${JSON.stringify(key)}`);
}

/** The folder of the file store under DATA_DIR. */
export function blobRootOf(dataDir: string): string {
  return path.join(dataDir, 'blobs');
}

/**
 * The filesystem driver: one file per key under DATA_DIR/blobs. A write goes to a hidden
 * temporary name in the target folder, is flushed to disk (fsync) and renamed into place,
 * so a crash leaves either the previous state or the whole new file, plus at most a
 * temporary file that `removeUnfinishedWrites` deletes at the next start. Files are
 * created 0600 and folders 0700 whatever the umask: payloads are tenants' documents.
 */
export class FileBlobStore extends BlobStore {
  constructor(readonly root: string) {
    super();
  }

  private pathOf(key: string): string {
    assertBlobKey(key);
    return path.join(this.root, ...key.split('/'));
  }

  async write(key: string, source: Buffer | AsyncIterable<Buffer>): Promise<StoredBlob> {
    const target = this.pathOf(key);
    const folder = path.dirname(target);
    await fs.promises.mkdir(folder, { recursive: true, mode: 0o700 });
    const temporary = path.join(folder, `.${path.basename(target)}.${randomUUID()}.part`);
    const hash = createHash('sha256');
    let bytes = 0;
    try {
      await pipeline(
        Buffer.isBuffer(source) ? Readable.from([source]) : Readable.from(source),
        new Transform({
          transform(chunk: Buffer, _encoding, done) {
            bytes += chunk.length;
            hash.update(chunk);
            done(null, chunk);
          },
        }),
        fs.createWriteStream(temporary, { flags: 'wx', mode: 0o600, flush: true }),
      );
      await fs.promises.rename(temporary, target);
    } catch (error) {
      await fs.promises.rm(temporary, { force: true });
      throw error;
    }
    return { key, bytes, sha256: hash.digest('hex') };
  }

  async read(key: string): Promise<Buffer> {
    try {
      return await fs.promises.readFile(this.pathOf(key));
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async size(key: string): Promise<number> {
    try {
      return (await fs.promises.stat(this.pathOf(key))).size;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async open(key: string): Promise<Readable> {
    try {
      const handle = await fs.promises.open(this.pathOf(key), 'r');
      return handle.createReadStream();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new BlobNotFoundError(key);
      throw error;
    }
  }

  async delete(keys: readonly string[]): Promise<void> {
    for (const key of keys) await fs.promises.rm(this.pathOf(key), { force: true });
  }

  async list(prefix: string): Promise<string[]> {
    const start = prefix ? this.pathOf(prefix) : this.root;
    const keys: string[] = [];
    for (const file of await walk(start)) {
      const name = path.relative(this.root, file).split(path.sep).join('/');
      if (!PARTIAL.test(path.basename(file)) && !STAGED.test(name)) keys.push(name);
    }
    return keys;
  }

  async writtenBefore(key: string, epochMs: number): Promise<boolean> {
    const stat = await fs.promises.stat(this.pathOf(key)).catch(() => null);
    return stat !== null && stat.mtimeMs < epochMs;
  }

  async removeUnfinishedWrites(): Promise<number> {
    let removed = 0;
    for (const file of await walk(this.root)) {
      if (PARTIAL.test(path.basename(file))) {
        await fs.promises.rm(file, { force: true });
        removed++;
      }
    }
    return removed;
  }

  get stagingRoot(): string {
    return this.root;
  }

  stagingName(key: string): string {
    assertBlobKey(key);
    const at = key.lastIndexOf('/');
    return `${key.slice(0, at + 1)}.${key.slice(at + 1)}.${randomUUID()}.staged`;
  }

  private stagedPathOf(name: string): string {
    if (!STAGED.test(name)) throw new Error(`invalid staged name ${JSON.stringify(name)}`);
    return path.join(this.root, ...name.split('/'));
  }

  async adopt(staged: string, key: string): Promise<void> {
    await fs.promises.rename(this.stagedPathOf(staged), this.pathOf(key));
  }

  async compose(key: string, parts: readonly (Buffer | StagedPart)[]): Promise<StoredBlob> {
    // Checked before anything is written: a staged name never leaves the store's folder.
    const sources = parts.map((part) =>
      Buffer.isBuffer(part) ? part : this.stagedPathOf(part.staged),
    );
    async function* bytes(): AsyncGenerator<Buffer> {
      for (const source of sources) {
        if (Buffer.isBuffer(source)) yield source;
        else yield* fs.createReadStream(source) as AsyncIterable<Buffer>;
      }
    }
    return this.write(key, bytes());
  }

  async discardStaged(names: readonly string[]): Promise<void> {
    for (const name of names) await fs.promises.rm(this.stagedPathOf(name), { force: true });
  }

  async listStaged(): Promise<{ name: string; key: string }[]> {
    const staged: { name: string; key: string }[] = [];
    for (const file of await walk(this.root)) {
      const name = path.relative(this.root, file).split(path.sep).join('/');
      if (!STAGED.test(name)) continue;
      // `<folder>/.<base>.<uuid>.staged` was staged for `<folder>/<base>`.
      const at = name.lastIndexOf('/');
      const base = name.slice(at + 2, -'.00000000-0000-0000-0000-000000000000.staged'.length);
      staged.push({ name, key: `${name.slice(0, at + 1)}${base}` });
    }
    return staged;
  }
}

/** Every file below `folder` (none when it does not exist). */
async function walk(folder: string): Promise<string[]> {
  let entries: fs.Dirent[];
  try {
    entries = await fs.promises.readdir(folder, { withFileTypes: true });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return [];
    throw error;
  }
  const files: string[] = [];
  for (const entry of entries) {
    const full = path.join(folder, entry.name);
    if (entry.isDirectory()) files.push(...(await walk(full)));
    else if (entry.isFile()) files.push(full);
  }
  return files;
}
