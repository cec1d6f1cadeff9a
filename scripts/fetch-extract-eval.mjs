#!/usr/bin/env node
/**
 * Builds the cache of the extract evaluation set (bench/extract-eval/manifest.json) in
 * .cache/extract-eval/: each document with the values its publisher expects extracted.
 *
 * The documents are files of public git repositories, pinned by repository, commit and
 * path, with their licences in the manifest, checked by SHA-256 and never committed. Local
 * copies of the repositories are looked up under EXTRACT_EVAL_SOURCES (default
 * /work/.mirror) as <owner>+<name>/repo (a git directory) or <owner>/<name> (a clone).
 *
 * Transforms named by entries:
 *   sroie-box-pdf: an SROIE receipt as a text PDF: each text box of data/box/<id>.csv drawn
 *   at its place on a page the size of the receipt's photo (the competition's own text, so
 *   the evaluation measures extraction, not OCR).
 *
 * Usage: node scripts/fetch-extract-eval.mjs [--force] [--strict]
 * A repository with no local copy is skipped (its documents are reported unavailable);
 * --strict exits 1 then. A hash that differs always exits 1.
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { imageSize } from 'image-size';
import { PDFDocument, StandardFonts } from 'pdf-lib';
import { gitDirOf, readBlob } from './lib/git-sources.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const manifestPath = path.join(root, 'bench', 'extract-eval', 'manifest.json');
const cacheDir = path.join(root, '.cache', 'extract-eval');
const sourcesDir = process.env.EXTRACT_EVAL_SOURCES ?? '/work/.mirror';
const force = process.argv.includes('--force');
const strict = process.argv.includes('--strict');

function checked(bytes, expected, what) {
  const sha = crypto.createHash('sha256').update(bytes).digest('hex');
  if (sha !== expected) throw new Error(`${what}: SHA-256 ${sha}, manifest says ${expected}`);
  return bytes;
}

/** Characters Helvetica (WinAnsi) cannot draw become '?'; the text is otherwise kept. */
function drawable(font, text) {
  let out = '';
  for (const ch of text) {
    try {
      font.encodeText(ch);
      out += ch;
    } catch {
      out += '?';
    }
  }
  return out;
}

async function sroieBoxPdf(boxCsv, imageBytes) {
  const { width, height } = imageSize(imageBytes);
  const scale = 0.5;
  const pdf = await PDFDocument.create();
  const font = await pdf.embedFont(StandardFonts.Helvetica);
  const page = pdf.addPage([width * scale, height * scale]);
  for (const raw of boxCsv.toString('utf8').split(/\r?\n/)) {
    const parts = raw.split(',');
    if (parts.length < 9) continue;
    const [x1, y1, , , , y3] = parts.slice(0, 8).map(Number);
    const text = drawable(font, parts.slice(8).join(',').trim());
    if (text === '' || !Number.isFinite(x1)) continue;
    const boxHeight = Math.max(4, (y3 - y1) * scale);
    const size = boxHeight * 0.8;
    page.drawText(text, { x: x1 * scale, y: (height - y3) * scale + boxHeight * 0.15, size, font });
  }
  return Buffer.from(await pdf.save());
}

/** Rows of a CSV text (RFC 4180: quoted fields may hold commas, quotes and newlines). */
function csvRows(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quoted) {
      if (ch === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (ch === '"') quoted = false;
      else field += ch;
    } else if (ch === '"') quoted = true;
    else if (ch === ',') {
      row.push(field);
      field = '';
    } else if (ch === '\n' || ch === '\r') {
      if (ch === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += ch;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

/** A US m/d/yy date as ISO (two-digit years from 50 are 19xx), or undefined. */
function isoOfUsDate(text) {
  const m = /^(\d{1,2})\/(\d{1,2})\/(\d{2}|\d{4})$/.exec(text.trim());
  if (!m) return undefined;
  const year = m[3].length === 4 ? Number(m[3]) : Number(m[3]) + (Number(m[3]) >= 50 ? 1900 : 2000);
  return `${year}-${m[1].padStart(2, '0')}-${m[2].padStart(2, '0')}`;
}

function cuadTruth(csvBytes, filename) {
  const [header, ...rows] = csvRows(csvBytes.toString('utf8'));
  const row = rows.find((r) => r[0] === filename);
  if (!row) throw new Error(`master_clauses.csv has no row for ${filename}`);
  const answer = (column) => (row[header.indexOf(column)] ?? '').trim();
  const truth = {
    title: answer('Document Name-Answer'),
    agreement_date: isoOfUsDate(answer('Agreement Date-Answer')),
    governing_law: answer('Governing Law-Answer'),
  };
  return Buffer.from(`${JSON.stringify(truth, null, 2)}\n`);
}

const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
let unavailable = 0;
let written = 0;
for (const entry of manifest.documents) {
  const dir = path.join(cacheDir, entry.id);
  const extension = entry.transform === 'sroie-box-pdf' ? '.pdf' : path.extname(entry.document);
  const documentPath = path.join(dir, `document${extension}`);
  const truthPath = path.join(dir, 'truth.json');
  if (!force && fs.existsSync(documentPath) && fs.existsSync(truthPath)) continue;
  const gitDir = gitDirOf(sourcesDir, entry.source);
  if (!gitDir) {
    unavailable++;
    continue;
  }
  const documentBytes = checked(
    readBlob(gitDir, entry.commit, entry.document),
    entry.documentSha256,
    entry.document,
  );
  const truth = checked(
    readBlob(gitDir, entry.commit, entry.truth),
    entry.truthSha256,
    entry.truth,
  );
  let bytes = documentBytes;
  const truthBytes = entry.transform === 'cuad-row' ? cuadTruth(truth, entry.row) : truth;
  if (entry.transform === 'sroie-box-pdf') {
    const image = checked(
      readBlob(gitDir, entry.commit, entry.image),
      entry.imageSha256,
      entry.image,
    );
    bytes = await sroieBoxPdf(documentBytes, image);
  }
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(documentPath, bytes);
  fs.writeFileSync(truthPath, truthBytes);
  written++;
}
console.log(
  `extract-eval: ${manifest.documents.length} documents, ${written} written, ${unavailable} unavailable (cache: ${cacheDir})`,
);
if (strict && unavailable > 0) process.exit(1);
