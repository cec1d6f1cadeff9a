import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

/**
 * The files the dashboard page is made of: its own ES modules and stylesheet, kept as source
 * in `src/dashboard/assets/` (no build step, so `npm start` from a fresh clone serves them),
 * and vendor files taken from installed npm packages. Only names in this table are served,
 * so no request path ever reaches the file system.
 */
export interface DashboardAsset {
  file: string;
  contentType: string;
}

const JS = 'text/javascript; charset=utf-8';
const OWN_FILES: Record<string, string> = {
  'index.html': 'text/html; charset=utf-8',
  'dashboard.css': 'text/css; charset=utf-8',
  'app.js': JS,
  'api.js': JS,
  'format.js': JS,
  'usage-query.js': JS,
  'usage-view.js': JS,
  'usage-chart.js': JS,
  'usage-filters.js': JS,
  'keys-view.js': JS,
  'metadata-keys-view.js': JS,
  'org-metadata-keys.js': JS,
  'alerts-view.js': JS,
  'revised-days.js': JS,
  'sign-in-view.js': JS,
};

/** `src/dashboard/assets` at the repository root, found from both `src/` and `dist/src/`. */
function ownAssetsDirectory(): string {
  let dir = path.dirname(fileURLToPath(import.meta.url));
  for (let depth = 0; depth < 6; depth++) {
    const candidate = path.join(dir, 'src', 'dashboard', 'assets');
    if (fs.existsSync(path.join(candidate, 'index.html'))) return candidate;
    dir = path.dirname(dir);
  }
  throw new Error('src/dashboard/assets not found');
}

/** A file beside a package's resolvable entry point (their `exports` hide the dist paths). */
function packageFile(entry: string, relative: string): string {
  const require = createRequire(import.meta.url);
  return path.join(path.dirname(require.resolve(entry)), relative);
}

export function dashboardAssets(): Map<string, DashboardAsset> {
  const own = ownAssetsDirectory();
  const assets = new Map<string, DashboardAsset>();
  for (const [name, contentType] of Object.entries(OWN_FILES)) {
    assets.set(name, { file: path.join(own, name), contentType });
  }
  assets.set('vendor/chart.umd.min.js', {
    file: packageFile('chart.js', 'chart.umd.min.js'),
    contentType: JS,
  });
  assets.set('vendor/preact-htm.js', {
    file: packageFile('htm', '../preact/standalone.module.js'),
    contentType: JS,
  });
  for (const [name, asset] of assets) {
    if (!fs.existsSync(asset.file))
      throw new Error(`dashboard file ${name} missing: ${asset.file}`);
  }
  return assets;
}
