/**
 * Resident size of one executor reading image pages whose language changes from page to
 * page (German, Greek, Japanese in turn): OCR keeps one language worker beside English's and
 * replaces it when another language is needed, so every page here starts a new one. Prints
 * the executor's RSS after each page (MB) and the pages' OCR languages.
 *
 * The Japanese pages need a font with kana and kanji, which no dependency ships: pass one
 * with OCR_BENCH_CJK_FONT (e.g. NotoSansJP-Regular.otf of the npm package @embedpdf/fonts-jp).
 * Recycling by size is off here (the curve is what recycling would hide); with `recycle`
 * after the page count it is left at the default (EXECUTOR_RECYCLE_RSS_MB), and the count of
 * executors used says how often an executor was replaced.
 *
 * Run: OCR_BENCH_CJK_FONT=/path/NotoSansJP-Regular.otf \
 *   node --import ./test/support/ts-register.mjs bench/ocr-language-memory.ts [pages] [recycle]
 */
import fs from 'node:fs';
import { createCanvas, GlobalFonts } from '@napi-rs/canvas';
import { loadConfig } from '../src/config/app-config.js';
import type { ParseOutcome } from '../src/documents/parse/parse.runner.js';
import { poolOptionsFrom } from '../src/documents/executors/task.pool.js';
import { DEFAULT_LAYOUT, executorPool } from '../test/support/operation-executors.js';

const PAGES = Number(process.argv[2] ?? 40);
const fontFile = process.env.OCR_BENCH_CJK_FONT;
if (!fontFile || !fs.existsSync(fontFile)) {
  throw new Error('OCR_BENCH_CJK_FONT must name a font file with Japanese glyphs');
}
GlobalFonts.registerFromPath(fontFile, 'BenchCjk');

const TEXTS: { language: string; lines: string[] }[] = [
  {
    language: 'German',
    lines: [
      'Kassenbon Bäckerei Müller, Straßburger Straße 12',
      'Rückgeld und Wechselgeld werden gezählt',
      'Vielen Dank für Ihren Einkauf, schöne Grüße',
      'Die Öffnungszeiten ändern sich nächste Woche',
    ],
  },
  {
    language: 'Greek',
    lines: [
      'Πανεπιστήμιο Αθηνών, Γραμματεία της Σχολής',
      'Πτυχίο Μηχανικού Ηλεκτρονικών Υπολογιστών',
      'Η Γραμματεία βεβαιώνει ότι ο φοιτητής ολοκλήρωσε',
      'τις σπουδές του με βαθμό λίαν καλώς',
    ],
  },
  {
    language: 'Japanese',
    lines: [
      '請求書 株式会社東京商事 御中',
      'お支払い期限は来月末日までとなります',
      '合計金額 一万二千五百円 消費税を含みます',
      'ご利用いただきありがとうございます',
    ],
  },
];

/** A page of `lines` in the CJK font (it has Latin and Greek too), numbered so no two match. */
function page(lines: string[], n: number): Buffer {
  const canvas = createCanvas(1275, 420);
  const context = canvas.getContext('2d');
  context.fillStyle = '#ffffff';
  context.fillRect(0, 0, canvas.width, canvas.height);
  context.fillStyle = '#000000';
  context.font = '34px BenchCjk';
  [...lines, `${n + 1}`].forEach((line, i) => context.fillText(line, 60, 80 + i * 60));
  return canvas.toBuffer('image/png');
}

/** Resident size of a live executor, MB; null when none is up (one recycled just now). */
function rssMb(pid: number | undefined): number | null {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    return Math.round(Number(/VmRSS:\s+(\d+)/.exec(status)![1]) / 1024);
  } catch {
    return null;
  }
}

const processing = { ...loadConfig({}).processing, cpuWorkerWarmThreads: 1 };
const options = poolOptionsFrom(processing, 1);
const recycle = process.argv[3] === 'recycle';
const pool = executorPool({
  ...options,
  settings: recycle
    ? options.settings
    : { ...options.settings, recycleRssMb: 100_000, rssLimitMb: 4_096 },
});
const started = Date.now();
try {
  const pids = new Set<number>();
  // Every executor that ever ran, seen by polling: a recycled one is gone by its task's end.
  const watch = setInterval(() => pool.pids.forEach((pid) => pids.add(pid)), 50);
  for (let n = 0; n < PAGES; n++) {
    const { language, lines } = TEXTS[n % TEXTS.length];
    const at = Date.now();
    const outcome = (await pool.run({
      kind: 'parse',
      documents: [{ bytes: page(lines, n), name: `page-${n + 1}.png` }],
      request: {},
      versions: { layout: DEFAULT_LAYOUT },
    })) as ParseOutcome;
    const [pid] = pool.pids;
    const text = outcome.result.chunks.map((c) => c.content).join(' ');
    console.log(
      JSON.stringify({
        page: n + 1,
        language,
        rssMb: rssMb(pid),
        pid,
        ms: Date.now() - at,
        read: text.replace(/\s+/g, ' ').slice(0, 40),
      }),
    );
  }
  clearInterval(watch);
  console.log(
    JSON.stringify({ pages: PAGES, executors: pids.size, s: (Date.now() - started) / 1000 }),
  );
} finally {
  await pool.close();
}
