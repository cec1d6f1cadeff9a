import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { addGlyphText, glyphNameLetters, unreadGlyphText } from './glyph-text.js';
import { recordedPathCount, recordPathOperator, startPathRecording } from './painted-paths.js';

const require = createRequire(import.meta.url);

/**
 * The statement of pdf.js's text extraction that adds one glyph's text to the run of glyphs it
 * later reorders (bidi) into logical order. Found once in the version `package.json` pins; a
 * pdf.js that no longer has it keeps its own worker, and the specs of right-to-left text fail.
 */
const GLYPH_TEXT_STATEMENT = 'textChunk.str.push(glyphUnicode);';

/**
 * The statements of pdf.js's text extraction where it has read an operator (the path
 * operators among them, which it otherwise passes over), where it starts reading a form, and
 * where it marks a form without text to be skipped when drawn again: with the calls added
 * there, the same pass gives the closed outlines a page paints (painted-paths.ts), so a page
 * is read once. Each found once; a pdf.js without them reads outlines from its operator list.
 */
const OPERATOR_READ_STATEMENT = 'currentTextState ||= textState.clone();';
const FORM_READ_STATEMENT = 'enqueueInvoked: false,';
const FORM_SKIPPED_STATEMENT = 'if (!sinkWrapper.enqueueInvoked) {';

/**
 * The statement of pdf.js's reading of a simple font's encoding where a glyph name gave a code
 * point (or none), and the one where it lets a font's ToUnicode map keep a code the encoding's
 * names would read: with the calls added there, a ligature glyph pdf.js cannot name ("t_i",
 * "f_f_i", "t_i.liga") is read by its name's letters (`glyphNameLetters`), and one the map reads
 * as nothing, U+FFFD or a private-use code point by its name when the name reads as letters.
 * Each found once; a pdf.js without them reads such glyphs as before.
 */
const GLYPH_NAME_CODE_STATEMENT = 'if (code > 0 && code <= 0x10ffff && Number.isInteger(code)) {';
const MAPPED_CODE_KEPT_STATEMENT = 'if (properties.toUnicode.has(charCode)) {';

interface WorkerModule {
  WorkerMessageHandler: unknown;
  setAddGlyphText(add: (run: string[], text: string) => void): void;
  setGlyphNames(letters: typeof glyphNameLetters, unread: typeof unreadGlyphText): void;
  setPathRecording(record: typeof recordPathOperator, count: typeof recordedPathCount): void;
}

/** Whether `statement` is in `source` exactly once. */
function foundOnce(source: string, statement: string): boolean {
  const at = source.indexOf(statement);
  return at >= 0 && source.indexOf(statement, at + 1) < 0;
}

/** `source` with the path recording calls added, or undefined where a statement is missing. */
function withPathRecording(source: string): string | undefined {
  const statements = [OPERATOR_READ_STATEMENT, FORM_READ_STATEMENT, FORM_SKIPPED_STATEMENT];
  if (!statements.every((statement) => foundOnce(source, statement))) return undefined;
  return source
    .replace(
      OPERATOR_READ_STATEMENT,
      `${OPERATOR_READ_STATEMENT} recordPathOperator(self, operation.fn, operation.args, stateManager.state);`,
    )
    .replace(FORM_READ_STATEMENT, `${FORM_READ_STATEMENT} pathsBefore: recordedPathCount(self),`)
    .replace(
      FORM_SKIPPED_STATEMENT,
      'if (!sinkWrapper.enqueueInvoked && recordedPathCount(self) === sinkWrapper.pathsBefore) {',
    );
}

/** `source` reading glyphs by their names' letters, or undefined where a statement is missing. */
function withGlyphNames(source: string): string | undefined {
  const statements = [GLYPH_NAME_CODE_STATEMENT, MAPPED_CODE_KEPT_STATEMENT];
  if (!statements.every((statement) => foundOnce(source, statement))) return undefined;
  return source
    .replace(
      GLYPH_NAME_CODE_STATEMENT,
      'if (!(code > 0 && code <= 0x10ffff && Number.isInteger(code))) {' +
        ' const letters = glyphNameLetters(glyphName, (part) => getUnicodeForGlyph(part, glyphsUnicodeMap));' +
        ' if (letters !== undefined) { toUnicode[charcode] = letters; continue; } } ' +
        GLYPH_NAME_CODE_STATEMENT,
    )
    .replace(
      MAPPED_CODE_KEPT_STATEMENT,
      'if ((properties.toUnicode.has(charCode) && !unreadGlyphText(properties.toUnicode.get(charCode))) ||' +
        ' unreadGlyphText(properties.fallbackToUnicode[charCode])) {',
    );
}

/**
 * pdf.js's worker module with these changes: glyphs read by their names where pdf.js cannot
 * (`withGlyphNames`), outlines recorded (`withPathRecording`), and each glyph's text added
 * to the run through `addGlyphText` (its `glyphText`, a kana voiced mark composed with its
 * letter) before the run is reordered, the only place a glyph standing for several letters
 * is still one glyph (after it, "لا" read from a ligature and "ال" read from two glyphs are
 * the same text). pdf.js runs its worker in this thread in Node and takes it from
 * `globalThis.pdfjsWorker` when set, so this module replaces the bundled one.
 */
async function loadWorker(): Promise<WorkerModule> {
  const bundled = await readFile(require.resolve('pdfjs-dist/legacy/build/pdf.worker.mjs'), 'utf8');
  if (!foundOnce(bundled, GLYPH_TEXT_STATEMENT)) {
    throw new Error(
      "pdf.js's worker does not add a glyph's text where it is expected: right-to-left ligatures would be read backwards",
    );
  }
  const recordingPaths = withPathRecording(bundled);
  if (recordingPaths === undefined) {
    process.emitWarning(
      "pdf: pdf.js's text extraction does not read operators where expected: painted shapes are read in a second pass",
    );
  }
  const readingNames = withGlyphNames(recordingPaths ?? bundled);
  if (readingNames === undefined) {
    process.emitWarning(
      "pdf: pdf.js's font reading does not read glyph names where expected: ligatures it cannot name are read as before",
    );
  }
  const source = readingNames ?? recordingPaths ?? bundled;
  const patched =
    'let addGlyphText = (run, text) => run.push(text);\n' +
    'export function setAddGlyphText(add) { addGlyphText = add; }\n' +
    'let glyphNameLetters = () => undefined;\n' +
    'let unreadGlyphText = () => false;\n' +
    'export function setGlyphNames(letters, unread) {\n' +
    '  glyphNameLetters = letters;\n' +
    '  unreadGlyphText = unread;\n' +
    '}\n' +
    'let recordPathOperator = () => undefined;\n' +
    'let recordedPathCount = () => 0;\n' +
    'export function setPathRecording(record, count) {\n' +
    '  recordPathOperator = record;\n' +
    '  recordedPathCount = count;\n' +
    '}\n' +
    source.replace(GLYPH_TEXT_STATEMENT, 'addGlyphText(textChunk.str, glyphUnicode);');
  // Imported from a file of a private directory made for it (a data: URL would keep the 3 MB
  // URL and its source alive, about 35 MB more per process); gone once the module is loaded.
  const directory = await mkdtemp(path.join(os.tmpdir(), 'docproc-pdfjs-'));
  try {
    const file = path.join(directory, 'pdf.worker.mjs');
    await writeFile(file, patched, { mode: 0o600 });
    const worker = (await import(pathToFileURL(file).href)) as WorkerModule;
    worker.setAddGlyphText(addGlyphText);
    worker.setGlyphNames(glyphNameLetters, unreadGlyphText);
    if (recordingPaths !== undefined) {
      worker.setPathRecording(recordPathOperator, recordedPathCount);
      await startPathRecording();
    }
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
