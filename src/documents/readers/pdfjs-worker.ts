import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addGlyphText } from './glyph-text.js';

const require = createRequire(import.meta.url);

/**
 * The statement of pdf.js's text extraction that adds one glyph's text to the run of glyphs it
 * later reorders (bidi) into logical order. Found once in the version `package.json` pins; a
 * pdf.js that no longer has it keeps its own worker, and the specs of right-to-left text fail.
 */
const GLYPH_TEXT_STATEMENT = 'textChunk.str.push(glyphUnicode);';

interface WorkerModule {
  WorkerMessageHandler: unknown;
  setAddGlyphText(add: (run: string[], text: string) => void): void;
}

/**
 * pdf.js's worker module with one change: each glyph's text is added to the run through
 * `addGlyphText` (its `glyphText`, a kana voiced mark composed with its letter) before the
 * run is reordered, the only place a glyph standing for several letters is still
 * one glyph (after it, "لا" read from a ligature and "ال" read from two glyphs are the same
 * text). pdf.js runs its worker in this thread in Node and takes it from
 * `globalThis.pdfjsWorker` when set, so this module replaces the bundled one.
 */
async function loadWorker(): Promise<WorkerModule> {
  const source = await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), 'utf8');
  const at = source.indexOf(GLYPH_TEXT_STATEMENT);
  if (at < 0 || source.indexOf(GLYPH_TEXT_STATEMENT, at + 1) >= 0) {
    throw new Error(
      "pdf.js's worker does not add a glyph's text where it is expected: right-to-left ligatures would be read backwards",
    );
  }
  const patched =
    'let addGlyphText = (run, text) => run.push(text);\n' +
    'export function setAddGlyphText(add) { addGlyphText = add; }\n' +
    source.slice(0, at) +
    'addGlyphText(textChunk.str, glyphUnicode);' +
    source.slice(at + GLYPH_TEXT_STATEMENT.length);
  // Imported from a file of a private directory made for it (a data: URL would keep the 3 MB
  // URL and its source alive, about 35 MB more per process); gone once the module is loaded.
  const directory = await mkdtemp(path.join(os.tmpdir(), 'docproc-pdfjs-'));
  try {
    const file = path.join(directory, 'pdf.worker.mjs');
    await writeFile(file, patched, { mode: 0o600 });
    const worker = (await import(pathToFileURL(file).href)) as WorkerModule;
    worker.setAddGlyphText(addGlyphText);
    return worker;
  } finally {
    await rm(directory, { recursive: true, force: true });
  }
}

let installed: Promise<void> | undefined;

/**
 * Installs the worker once per thread, before pdf.js is first asked for a document. Where it
 * cannot be installed (no writable temporary directory, as under a read-only root file
 * system, or a pdf.js without the statement) pdf.js keeps its bundled worker: every document
 * is still read, with right-to-left ligatures backwards, and a warning says why.
 */
export function installPdfWorker(): Promise<void> {
  installed ??= loadWorker().then(
    (worker) => {
      (globalThis as { pdfjsWorker?: WorkerModule }).pdfjsWorker = worker;
    },
    (error: unknown) => {
      process.emitWarning(
        `pdf: bundled text reader kept, right-to-left ligatures may read backwards: ${String(error)}`,
      );
    },
  );
  return installed;
}
