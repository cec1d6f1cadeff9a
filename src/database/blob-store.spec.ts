import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from '@jest/globals';
import { BlobNotFoundError, FileBlobStore } from './blob-store.js';

describe(FileBlobStore.name, () => {
  let root: string;
  let sut: FileBlobStore;

  beforeEach(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-blobs-'));
    sut = new FileBlobStore(path.join(root, 'blobs'));
  });
  afterEach(() => fs.rmSync(root, { recursive: true, force: true }));

  it('writes a payload whole, private to the owner, with its size and hash', async () => {
    const stored = await sut.write('results/job-1.json', Buffer.from('{"a":1}'));
    expect(stored).toEqual({
      key: 'results/job-1.json',
      bytes: 7,
      sha256: '015abd7f5cc57a2dd94b7590f04ad8084273905ee33ec5cebeae62276a97f862',
    });
    expect((await sut.read('results/job-1.json')).toString()).toBe('{"a":1}');
    const file = path.join(root, 'blobs', 'results', 'job-1.json');
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(fs.statSync(path.dirname(file)).mode & 0o777).toBe(0o700);
  });

  it('opens a payload as a stream, and refuses a missing one before any byte', async () => {
    await sut.write('results/job-2.json', Buffer.from('{"big":true}'));
    const chunks: Buffer[] = [];
    for await (const chunk of await sut.open('results/job-2.json')) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('{"big":true}');
    await expect(sut.open('results/none.json')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('leaves nothing when the source fails midway', async () => {
    async function* failing(): AsyncGenerator<Buffer> {
      yield Buffer.alloc(1024, 1);
      throw new Error('client went away');
    }
    await expect(sut.write('doc.pdf', failing())).rejects.toThrow('client went away');
    expect(await sut.list('')).toEqual([]);
    expect(fs.readdirSync(path.join(root, 'blobs'))).toEqual([]);
    await expect(sut.read('doc.pdf')).rejects.toBeInstanceOf(BlobNotFoundError);
  });

  it('lists complete payloads only, and removes what interrupted writes left', async () => {
    await sut.write('a.pdf', Buffer.from('a'));
    await sut.write('results/b.json', Buffer.from('b'));
    fs.writeFileSync(
      path.join(root, 'blobs', 'results', '.c.json.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.part'),
      'half',
    );
    // Where uploads put their temporary files before this store existed.
    fs.writeFileSync(
      path.join(
        root,
        'blobs',
        '0b6f1a64-9c62-4c55-9f3c-3f5d4b1a2c3d.pdf.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.part',
      ),
      'half',
    );
    expect((await sut.list('')).sort()).toEqual(['a.pdf', 'results/b.json']);
    expect(await sut.list('results')).toEqual(['results/b.json']);
    expect(await sut.removeUnfinishedWrites()).toBe(2);
    expect(fs.readdirSync(path.join(root, 'blobs', 'results'))).toEqual(['b.json']);
  });

  it('refuses keys that could leave its folder', async () => {
    for (const key of ['../x', '/etc/passwd', 'a/../../b', '', '.hidden']) {
      await expect(sut.write(key, Buffer.from('x'))).rejects.toThrow('invalid blob key');
    }
  });

  it('deletes payloads, ignoring keys without one', async () => {
    await sut.write('a.pdf', Buffer.from('a'));
    await sut.delete(['a.pdf', 'missing.pdf']);
    expect(await sut.list('')).toEqual([]);
  });

  /** What another process (an executor) writes under a staged name. */
  function writeStaged(name: string, text: string): void {
    const file = path.join(sut.stagingRoot, ...name.split('/'));
    fs.mkdirSync(path.dirname(file), { recursive: true });
    fs.writeFileSync(file, text);
  }

  it('names staged payloads apart from payloads and unfinished writes, listed with their key', async () => {
    const name = sut.stagingName('results/job-3.json');
    expect(name).toMatch(/^results\/\.job-3\.json\.[0-9a-f-]{36}\.staged$/);
    expect(sut.stagingName('results/job-3.json')).not.toBe(name);
    writeStaged(name, '{}');
    const top = sut.stagingName('doc.pdf');
    writeStaged(top, '%PDF');
    expect(await sut.list('')).toEqual([]);
    // A restart keeps them: a report still on its way may name one.
    expect(await sut.removeUnfinishedWrites()).toBe(0);
    expect((await sut.listStaged()).sort((a, b) => a.name.localeCompare(b.name))).toEqual(
      [
        { name: top, key: 'doc.pdf' },
        { name, key: 'results/job-3.json' },
      ].sort((a, b) => a.name.localeCompare(b.name)),
    );
    await sut.discardStaged([name, top]);
    expect(await sut.listStaged()).toEqual([]);
  });

  it('composes a payload from buffers and staged payloads, in order, keeping them until discarded', async () => {
    const first = sut.stagingName('results/job-4.json');
    const second = sut.stagingName('results/job-4.json');
    writeStaged(first, '[1,2,3]');
    writeStaged(second, '"x"');
    const parts = [
      Buffer.from('{"a":'),
      { staged: first },
      Buffer.from(',"b":'),
      { staged: second },
      Buffer.from('}'),
    ];
    const stored = await sut.compose('results/job-4.json', parts);
    expect(stored.bytes).toBe('{"a":[1,2,3],"b":"x"}'.length);
    expect(JSON.parse((await sut.read('results/job-4.json')).toString())).toEqual({
      a: [1, 2, 3],
      b: 'x',
    });
    expect(fs.statSync(path.join(root, 'blobs', 'results', 'job-4.json')).mode & 0o777).toBe(0o600);
    await sut.discardStaged([first, second, first]);
    expect(fs.readdirSync(path.join(root, 'blobs', 'results'))).toEqual(['job-4.json']);
    expect(await sut.listStaged()).toEqual([]);
  });

  it('leaves nothing under the key when a staged payload is missing', async () => {
    const missing = sut.stagingName('results/job-5.json');
    await expect(
      sut.compose('results/job-5.json', [Buffer.from('{"a":'), { staged: missing }]),
    ).rejects.toThrow(/ENOENT/);
    await expect(sut.read('results/job-5.json')).rejects.toBeInstanceOf(BlobNotFoundError);
    expect(await sut.removeUnfinishedWrites()).toBe(0);
    expect(await sut.list('')).toEqual([]);
  });

  it('moves a staged payload into place whole', async () => {
    const name = sut.stagingName('results/job-6.parsed.json');
    writeStaged(name, '{"lines":[]}');
    await sut.adopt(name, 'results/job-6.parsed.json');
    expect((await sut.read('results/job-6.parsed.json')).toString()).toBe('{"lines":[]}');
    expect(await sut.listStaged()).toEqual([]);
  });

  it('refuses names that are not its staged payloads', async () => {
    for (const name of [
      '../.x.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.staged',
      '/etc/.x.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.staged',
      'results/job.json',
      'results/.x.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.part',
      'results/../../.x.5d9e5c2e-0a6e-4d7a-8f43-3c1f0a9b8e7d.staged',
    ]) {
      await expect(sut.compose('results/y.json', [{ staged: name }])).rejects.toThrow(
        'invalid staged name',
      );
      await expect(sut.adopt(name, 'results/y.json')).rejects.toThrow('invalid staged name');
    }
  });
});
