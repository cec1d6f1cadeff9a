// A PDF of `pages` letter pages, 44 numbered lines of plain words each, the words shifted by
// `seed` so that every document the benchmarks submit is distinct (no result is reused).
import { PDFDocument, StandardFonts } from 'pdf-lib';

const WORDS = (
  'the committee reviewed the quarterly figures and agreed on the schedule for the next ' +
  'meeting while the members discussed budgets suppliers deliveries staffing and the plan'
).split(' ');

export async function numberedLinesPdf(pages, seed) {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  for (let p = 0; p < pages; p++) {
    const page = doc.addPage([612, 792]);
    for (let line = 0; line < 44; line++) {
      const text = Array.from(
        { length: 14 },
        (_, i) => WORDS[(seed * 7 + p * 13 + line * 3 + i) % WORDS.length],
      ).join(' ');
      page.drawText(`${line + 1}. ${text}`, { x: 40, y: 750 - line * 16, size: 10, font });
    }
  }
  return Buffer.from(await doc.save());
}

/**
 * The files the tenant benchmarks serve: `/a-<i>.pdf` for i < `count`, each of `pages` pages
 * (one organization's backlog), and `/b.pdf`, one page (the other organization's request).
 */
export async function backlogFiles(count, pages) {
  const files = new Map();
  for (let i = 0; i < count; i++) {
    files.set(`/a-${i}.pdf`, { bytes: await numberedLinesPdf(pages, i), type: 'application/pdf' });
  }
  files.set('/b.pdf', { bytes: await numberedLinesPdf(1, 99), type: 'application/pdf' });
  return files;
}
