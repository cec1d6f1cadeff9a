#!/usr/bin/env node
/**
 * Copies the real fillable forms of bench/edit-forms/manifest.json into .cache/edit-forms/:
 * files of public git repositories pinned by repository, commit and path, with their
 * licences in the manifest, checked by SHA-256 and never committed. Local copies of the
 * repositories are looked up under EDIT_FORMS_SOURCES (default /work/.mirror) as
 * <owner>+<name>/repo (a git directory) or <owner>/<name> (a clone).
 *
 * Usage: node scripts/fetch-edit-forms.mjs [--strict]
 * A repository with no local copy is reported; --strict exits 1 then. A hash that differs
 * always exits 1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitDirOf, readBlob } from './lib/git-sources.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(
  fs.readFileSync(path.join(root, 'bench', 'edit-forms', 'manifest.json'), 'utf8'),
);
const cacheDir = path.join(root, '.cache', 'edit-forms');
const sourcesDir = process.env.EDIT_FORMS_SOURCES ?? '/work/.mirror';
const strict = process.argv.includes('--strict');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

fs.mkdirSync(cacheDir, { recursive: true });
const missing = [];
for (const form of manifest.forms) {
  const target = path.join(cacheDir, form.file);
  if (fs.existsSync(target) && sha256(fs.readFileSync(target)) === form.sha256) continue;
  const gitDir = gitDirOf(sourcesDir, form.source.repo);
  if (!gitDir) {
    missing.push(`${form.id} (${form.source.repo} not under ${sourcesDir})`);
    continue;
  }
  const bytes = readBlob(gitDir, form.source.commit, form.source.path);
  const actual = sha256(bytes);
  if (actual !== form.sha256) {
    console.error(`${form.id}: SHA-256 ${actual}, manifest says ${form.sha256}`);
    process.exit(1);
  }
  fs.writeFileSync(target, bytes);
}
if (missing.length > 0) {
  console.error(`edit forms unavailable: ${missing.join('; ')}`);
  if (strict) process.exit(1);
}
