import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** Spec "Versioning": the API description version, `v<major>.<minor>.<patch>-<build suffix>`. */
export const API_VERSION_PATTERN = /^v\d+\.\d+\.\d+-[0-9A-Za-z.-]+$/;

/** The nearest directory at or above this module holding a package.json (the project root). */
function projectRoot(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  while (!fs.existsSync(path.join(dir, 'package.json'))) {
    const parent = path.dirname(dir);
    if (parent === dir) throw new Error('package.json not found above ' + import.meta.url);
    dir = parent;
  }
  return dir;
}

let cached: string | undefined;

/**
 * The version a build stamped into dist/build-info.json (scripts/build-info.mjs). When
 * running from source (tests, ts dev runs) there is no build: the suffix is then the
 * working tree's commit, marked `dev`.
 */
export function apiVersion(): string {
  if (cached) return cached;
  const root = projectRoot();
  const stamped = path.join(root, 'dist', 'build-info.json');
  const fromSource = !fileURLToPath(import.meta.url).includes(`${path.sep}dist${path.sep}`);
  if (!fromSource && fs.existsSync(stamped)) {
    const { version } = JSON.parse(fs.readFileSync(stamped, 'utf8')) as { version: string };
    if (API_VERSION_PATTERN.test(version)) return (cached = version);
  }
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as {
    version: string;
  };
  let suffix = 'dev';
  try {
    const sha = execFileSync('git', ['rev-parse', '--short', 'HEAD'], {
      cwd: root,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
    if (/^[0-9a-f]+$/.test(sha)) suffix = `dev.g${sha}`;
  } catch {
    // Not a git checkout: `dev` alone.
  }
  return (cached = `v${pkg.version}-${suffix}`);
}
