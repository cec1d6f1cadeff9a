#!/usr/bin/env node
// `npm start`'s build step: runs `npm run build` only when a build input changed since the
// last build, so a restart without changes is up in seconds. The inputs are the sources,
// the compiler settings and the locked dependencies; dist/.build-stamp records the newest
// input modification time the last successful build saw.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const stampFile = path.join(root, 'dist', '.build-stamp');
const INPUTS = [
  'src',
  'package.json',
  'package-lock.json',
  'tsconfig.json',
  'tsconfig.build.json',
  'scripts/build-info.mjs',
];

function newestMtime(entry) {
  let stat;
  try {
    stat = fs.statSync(entry);
  } catch {
    return 0;
  }
  if (!stat.isDirectory()) return stat.mtimeMs;
  let newest = stat.mtimeMs; // a deleted or renamed file changes its directory's mtime
  for (const name of fs.readdirSync(entry)) {
    newest = Math.max(newest, newestMtime(path.join(entry, name)));
  }
  return newest;
}

const inputs = Math.max(...INPUTS.map((entry) => newestMtime(path.join(root, entry))));
function lastBuild() {
  if (!fs.existsSync(path.join(root, 'dist', 'src', 'main.js'))) return 0;
  try {
    return Number(fs.readFileSync(stampFile, 'utf8')) || 0;
  } catch {
    return 0;
  }
}

const built = lastBuild();
if (built >= inputs) {
  process.stderr.write('build: dist/ is up to date\n');
} else {
  execFileSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
  fs.writeFileSync(stampFile, String(inputs));
}
