import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from '@jest/globals';
import { threadEntry } from './usage-normalizer.js';

describe('threadEntry (where Kafka batches are normalized)', () => {
  let dir: string;
  let built: string;

  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'normalizer-entry-'));
    built = path.join(dir, 'usage-normalizer.worker.js');
    fs.writeFileSync(built, '');
  });

  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('is the built entry when the thread is on', () => {
    expect(threadEntry(true, built)).toBe(built);
  });

  it('is none when USAGE_NORMALIZER_THREAD is off, even with the entry built', () => {
    expect(threadEntry(false, built)).toBeNull();
  });

  it('is none when the entry is not built (runs from the TypeScript sources)', () => {
    expect(threadEntry(true, path.join(dir, 'missing.js'))).toBeNull();
  });
});
