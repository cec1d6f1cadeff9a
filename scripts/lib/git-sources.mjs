/**
 * Local copies of public repositories that the evaluation fetch scripts copy documents
 * from: found under a sources folder (as `fetch` lays them out, or as plain clones), read
 * at a pinned commit.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Where the git directory of `owner/name` is under `sourcesDir`, or undefined. */
export function gitDirOf(sourcesDir, repo) {
  const [owner, name] = repo.split('/');
  const candidates = [
    path.join(sourcesDir, `${owner}+${name}`, 'repo'),
    path.join(sourcesDir, `${owner}+${name}`, 'repo', '.git'),
    path.join(sourcesDir, owner, name, '.git'),
    path.join(sourcesDir, owner, name),
  ];
  return candidates.find((dir) => fs.existsSync(path.join(dir, 'HEAD')));
}

/** The bytes of `file` at `commit`. */
export function readBlob(gitDir, commit, file) {
  return execFileSync('git', ['--git-dir', gitDir, 'cat-file', 'blob', `${commit}:${file}`], {
    maxBuffer: 64 * 1024 * 1024,
  });
}
