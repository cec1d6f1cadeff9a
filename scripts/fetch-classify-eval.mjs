#!/usr/bin/env node
/**
 * Builds the cache of the real-document classification evaluation set
 * (bench/classify-eval/manifest.json) in .cache/classify-eval/docs/.
 *
 * The documents are public files of public git repositories, pinned by repository, commit and
 * path, each with its licence recorded in the manifest. They are not committed: this script
 * copies each one out of a local copy of its repository and checks its SHA-256.
 *
 * Local copies are looked up under CLASSIFY_EVAL_SOURCES (default /work/.mirror), as
 *   <sources>/<owner>+<name>/repo  (a git directory or a work tree with .git), or
 *   <sources>/<owner>/<name>       (a plain clone).
 * To make one: git clone https://github.com/<owner>/<name> <sources>/<owner>/<name>
 * (the pinned commit must be in its history).
 *
 * Both sets are fetched: bench/classify-eval/manifest.json (business categories) and
 * bench/classify-eval/unseen/manifest.json (categories the models were never written for); their
 * documents share the cache directory, so ids are unique across both.
 *
 * Usage: node scripts/fetch-classify-eval.mjs [--force] [--strict]
 * An entry without `sha256` (just added) gets the hash of the file it names, written back.
 *
 * A repository with no local copy is skipped: its documents are listed as unavailable (the
 * bench reports how many) and the script still exits 0, so a fresh clone without the copies
 * can run the bench on what it has. --strict exits 1 when any document is unavailable.
 * A hash that differs, or a file that cannot be read at its pinned commit, always exits 1.
 */
import { Buffer } from 'node:buffer';
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { gitDirOf, readBlob } from './lib/git-sources.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** Every evaluation set: the business categories and the categories the models never saw. */
const manifestPaths = [
  path.join(root, 'bench', 'classify-eval', 'manifest.json'),
  path.join(root, 'bench', 'classify-eval', 'unseen', 'manifest.json'),
];
const cacheDir = path.join(root, '.cache', 'classify-eval', 'docs');
const sourcesDir = process.env.CLASSIFY_EVAL_SOURCES ?? '/work/.mirror';
const force = process.argv.includes('--force');
const strict = process.argv.includes('--strict');

/**
 * Turns a source file the document loader cannot read into the document's text, without
 * changing its words. Each transform is named in the manifest entry that needs it.
 */
const transforms = {
  /** A UIMA CAS JSON export (GraSCCo): the document is the text of its Sofa. */
  'uima-cas-sofa': (bytes) => {
    const cas = JSON.parse(bytes.toString('utf8'));
    const sofa = cas['%FEATURE_STRUCTURES'].find((fs) => fs['%TYPE'] === 'uima.cas.Sofa');
    return Buffer.from(sofa.sofaString.replace(/^\uFEFF/, ''), 'utf8');
  },
  /**
   * The text of a PDF as a parser's test case keeps it: a header of tool versions above a
   * line of dashes, sometimes inside a Markdown code fence; the document is what follows.
   */
  'pdf-text-test-case': (bytes) => {
    let lines = bytes.toString('utf8').split('\n');
    const rule = lines.slice(0, 12).findIndex((line) => /^-{10,}\s*$/.test(line));
    if (rule >= 0) lines = lines.slice(rule + 1);
    return Buffer.from(
      lines
        .filter((line) => !line.startsWith('```'))
        .join('\n')
        .trim(),
      'utf8',
    );
  },
  /**
   * A JATS XML article (SciELO): its front matter, body and references as text, one block a
   * line; translated sub-articles are left out so the document keeps its one language.
   */
  'jats-article-text': (bytes) => {
    const xml = bytes
      .toString('utf8')
      .replace(/<sub-article[\s\S]*?<\/sub-article>/g, '')
      .replace(/<\/(p|title|article-title|aff|ref|contrib|sec|caption|label|tr|kwd-group)>/g, '\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
    const lines = xml.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    return Buffer.from(lines.filter(Boolean).join('\n'), 'utf8');
  },
  /**
   * One section of a Markdown file that holds the same text in several languages: from the
   * `## ` heading that starts with `heading` to the next `## ` heading.
   */
  'markdown-section': (bytes, entry) => {
    const lines = bytes.toString('utf8').split('\n');
    const start = lines.findIndex((line) =>
      line.startsWith(`## ${entry.transformOptions.heading}`),
    );
    if (start < 0) throw new Error(`no section ${entry.transformOptions.heading}`);
    const end = lines.findIndex((line, i) => i > start && line.startsWith('## '));
    return Buffer.from(
      lines
        .slice(start, end < 0 ? undefined : end)
        .join('\n')
        .trim(),
      'utf8',
    );
  },
  /**
   * A DocBook chapter (a user manual kept as XML): its text, one block a line, without the
   * markup; entities that name the product or a menu are kept as their names.
   */
  'docbook-text': (bytes) => {
    const xml = bytes
      .toString('utf8')
      .replace(/<!--[\s\S]*?-->/g, '')
      .replace(/<!DOCTYPE[\s\S]*?\]>/, '')
      .replace(/<(screenshot|mediaobject|indexterm)[\s\S]*?<\/\1>/g, '')
      .replace(/<\/(para|title|listitem|entry|row|term|simpara|caption)>/g, '\n')
      .replace(/<[^>]+>/g, ' ')
      .replace(/&#x([0-9a-f]+);/gi, (_, hex) => String.fromCodePoint(parseInt(hex, 16)))
      .replace(/&#(\d+);/g, (_, dec) => String.fromCodePoint(Number(dec)))
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&')
      .replace(/&([\w.-]+);/g, (_, name) => (name === 'app' ? 'GnuCash' : name));
    const lines = xml.split('\n').map((line) => line.replace(/\s+/g, ' ').trim());
    return Buffer.from(lines.filter(Boolean).join('\n'), 'utf8');
  },
  /** One record of a CSV file, chosen by `record` (0-based, header excluded), one column. */
  'csv-record': (bytes, entry) => {
    const rows = parseCsv(bytes.toString('utf8'));
    const header = rows[0];
    const column = header.indexOf(entry.transformOptions.column);
    return Buffer.from(rows[entry.transformOptions.record + 1][column], 'utf8');
  },
};

/** RFC 4180 CSV: quoted fields, doubled quotes, newlines inside quotes. */
function parseCsv(text) {
  const rows = [];
  let row = [];
  let field = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        field += '"';
        i++;
      } else if (c === '"') quoted = false;
      else field += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(field);
      field = '';
    } else if (c === '\n' || c === '\r') {
      if (c === '\r' && text[i + 1] === '\n') i++;
      row.push(field);
      rows.push(row);
      row = [];
      field = '';
    } else field += c;
  }
  if (field !== '' || row.length > 0) rows.push([...row, field]);
  return rows;
}

fs.mkdirSync(cacheDir, { recursive: true });
/** Repository -> ids of the documents skipped because it has no local copy. */
const missingRepos = new Map();
let written = 0;
let present = 0;
let recorded = 0;
let listed = 0;
const failures = [];
for (const manifestPath of manifestPaths.filter((file) => fs.existsSync(file))) {
  const manifest = JSON.parse(fs.readFileSync(manifestPath, 'utf8'));
  let recordedHere = 0;
  for (const entry of manifest.documents) {
    listed++;
    const target = path.join(cacheDir, entry.file);
    if (!force && fs.existsSync(target) && entry.sha256 !== undefined) {
      const sha = crypto.createHash('sha256').update(fs.readFileSync(target)).digest('hex');
      if (sha === entry.sha256) {
        present++;
        continue;
      }
    }
    const gitDir = gitDirOf(sourcesDir, entry.source.repo);
    if (!gitDir) {
      missingRepos.set(entry.source.repo, [
        ...(missingRepos.get(entry.source.repo) ?? []),
        entry.id,
      ]);
      continue;
    }
    try {
      let bytes = readBlob(gitDir, entry.source.commit, entry.source.path);
      // A Git LFS pointer instead of the file: the copy was made without its LFS objects.
      if (bytes.length < 512 && bytes.toString('utf8').startsWith('version https://git-lfs')) {
        throw new Error('the local copy holds a Git LFS pointer, not the file');
      }
      if (entry.transform) bytes = transforms[entry.transform](bytes, entry);
      const sha = crypto.createHash('sha256').update(bytes).digest('hex');
      // An entry added without a hash gets the one of the file it names now, recorded once.
      if (entry.sha256 === undefined) {
        entry.sha256 = sha;
        recordedHere++;
      } else if (sha !== entry.sha256) {
        throw new Error(`SHA-256 ${sha} differs from the manifest's`);
      }
      fs.writeFileSync(target, bytes);
      written++;
    } catch (error) {
      failures.push(
        `${entry.id}: ${error instanceof Error ? error.message.split('\n')[0] : error}`,
      );
    }
  }
  if (recordedHere > 0) {
    fs.writeFileSync(manifestPath, `${JSON.stringify(manifest, null, 2)}\n`);
    recorded += recordedHere;
  }
}
if (recorded > 0) console.log(`recorded the SHA-256 of ${recorded} new entries in the manifests`);
const unavailable = [...missingRepos.values()].reduce((sum, ids) => sum + ids.length, 0);
console.log(
  `classify-eval cache ${path.relative(root, cacheDir)}: ${present} present, ${written} written, ` +
    `${unavailable} unavailable (no local copy of their repository), ${failures.length} failed, ` +
    `of ${listed}`,
);
for (const [repo, ids] of missingRepos) {
  console.log(
    `  skipped ${ids.length} document(s) of ${repo}: no local copy under ${sourcesDir}; ` +
      `to add it: git clone https://github.com/${repo} ${sourcesDir}/${repo}`,
  );
}
for (const failure of failures) console.log(`  failed ${failure}`);
if (unavailable > 0) {
  console.log(
    `  the bench scores the documents that are present and reports the ${unavailable} unavailable`,
  );
}
process.exitCode = failures.length > 0 || (strict && unavailable > 0) ? 1 : 0;
