#!/usr/bin/env node
// Writes dist/build-info.json at build time: the API description version
// `v<major>.<minor>.<patch>-<build suffix>`, where the suffix is the short git commit and the
// build date (`g1a2b3c4.20261121`), or `DOCPROC_BUILD_SUFFIX` when the build sets one (CI).
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const date = new Date().toISOString().slice(0, 10).replace(/-/g, '');
let suffix = process.env.DOCPROC_BUILD_SUFFIX;
if (!suffix) {
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: root })
      .toString()
      .trim();
    suffix = `g${sha}.${date}`;
  } catch {
    suffix = `build.${date}`;
  }
}
const version = `v${pkg.version}-${suffix}`;
if (!/^v\d+\.\d+\.\d+-[0-9A-Za-z.-]+$/.test(version)) {
  console.error(`build-info: "${version}" is not v<major>.<minor>.<patch>-<build suffix>`);
  process.exit(1);
}
fs.mkdirSync(path.join(root, 'dist'), { recursive: true });
fs.writeFileSync(path.join(root, 'dist', 'build-info.json'), JSON.stringify({ version }) + '\n');
console.log(`build-info: ${version}`);
