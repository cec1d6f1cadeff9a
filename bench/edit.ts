/**
 * Edit latency: p50 per document, per page and per field filled, on one core (this process,
 * after warm-up: the encoder loaded), for two real AcroForms (a LibreOffice form and an
 * OpenOffice form with every field kind, from pypdf's PyPI source distribution), a generated
 * flat PDF with form_schema and a generated DOCX, and two government forms: VA Form 21-0966
 * (pikepdf's distribution) and IRS Form 1040NR, a tax form (pdfminer's distribution).
 * Baseline, measured in the same run: pdf-lib loading the same PDF, setting the same fields
 * by name and saving it (the mechanical part of filling, no reading or matching).
 * Run: npm run bench:edit
 */
import os from 'node:os';
import { PDFDocument, PDFName } from 'pdf-lib';
import { runEdit } from '../src/documents/edit/edit.runner.js';
import type { EditRequest } from '../src/documents/edit/edit.types.js';
import type { ResolvedVersion } from '../src/documents/versions/model-version.types.js';
import { makeFlatForm, makePlaceholderDocx, realForm } from '../test/support/edit-forms.js';

const RUNS = Number(process.env.EDIT_BENCH_RUNS ?? 15);
const version = {
  family: 'edit_model',
  version: 'edit-v1',
  engine: 'form-fill',
  stage: 'default',
  pinned: false,
} as unknown as ResolvedVersion;

interface Case {
  name: string;
  bytes: Buffer;
  file: string;
  request: EditRequest;
  /** Fields the baseline sets by name (AcroForm cases only). */
  baseline?: Record<string, string>;
}

const flat = await makeFlatForm([
  { label: 'Full name', type: 'text' },
  { label: 'Date of birth (MM/DD/YYYY)', type: 'text', width: 120 },
  { label: 'Married', type: 'checkbox' },
  { label: 'Remarks', type: 'text', width: 90 },
]);
const cases: Case[] = [
  {
    name: 'LibreOffice form (AcroForm)',
    bytes: realForm('libreoffice-form'),
    file: 'form.pdf',
    request: {
      edit_instructions:
        "first name: Ada, last name: Lovelace, birthday: 10 December 1815, gender: female, nationality: French, tick 'agree to privacy policy'",
    },
    baseline: { 'First Name': 'Ada', 'Last Name': 'Lovelace', Birthday: '10 December 1815' },
  },
  {
    name: 'OpenOffice form, every field kind (AcroForm)',
    bytes: realForm('openoffice-form-test'),
    file: 'oo-form.pdf',
    request: {
      edit_instructions:
        'text1: hello; text2: two lines; tick checkbox 1; radio: Rdo2; combo: combo Line 2; droplist: DropList3; dlist: DList4',
    },
    baseline: { Text1: 'hello', Text2: 'two lines' },
  },
  {
    name: 'VA Form 21-0966, government form (AcroForm, XFA)',
    bytes: realForm('va-21-0966'),
    file: 'va-21-0966.pdf',
    request: {
      edit_instructions:
        "Veteran's first name: John; last name: Public; social security number: 123-45-6789; date of birth: 14 July 1950; city: Springfield; ZIP code: 62704; telephone: 217-555-0142; tick compensation",
    },
    baseline: {
      'F[0].Page_1[0].Veterans_First_Name[0]': 'John',
      'F[0].Page_1[0].Veterans_Last_Name[0]': 'Public',
      'F[0].Page_1[0].MailingAddress_City[0]': 'Springfield',
    },
  },
  {
    name: 'IRS Form 1040NR, tax form (AcroForm, fields named by position only)',
    bytes: realForm('irs-1040nr-2007'),
    file: 'f1040nr.pdf',
    request: {
      edit_instructions:
        'first name: Ada M.; last name: Lovelace; identifying number: 123-45-6789; home address: 12 Main Street Apt 4; city: Springfield IL 62704; country: United Kingdom; tick individual; tick other single nonresident alien; wages: 52,300.00; taxable interest: 120.50',
    },
    baseline: {
      'f1_004(0)': 'Ada M.',
      'f1_005(0)': 'Lovelace',
      'f1_006(0)': '123-45-6789',
      'f1_039(0)': '52,300',
      'f1_040(0)': '00',
    },
  },
  {
    name: 'flat PDF + form_schema',
    bytes: flat.bytes,
    file: 'flat.pdf',
    request: {
      edit_instructions:
        "name: Ada Lovelace, date of birth 10 December 1815, tick 'married', remarks: none",
      form_schema: flat.boxes.map((b) => ({
        bbox: { page: b.page, left: b.left, top: b.top, width: b.width, height: b.height },
        description: b.label,
        type: b.type,
      })),
    },
  },
  {
    name: 'DOCX placeholders',
    bytes: await makePlaceholderDocx([
      ['Employee name: ', '{{employee_name}}'],
      ['Start date: ____________'],
      ['Salary: [Annual salary]'],
      ['☐ Full time    ☐ Part time'],
    ]),
    file: 'contract.docx',
    request: {
      edit_instructions:
        'employee name: Ada Lovelace; start date: 1 March 2027; annual salary: 90,000 GBP; tick part time',
    },
  },
];

function p50(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

async function baselineRun(bytes: Buffer, fields: Record<string, string>): Promise<void> {
  const doc = await PDFDocument.load(bytes);
  doc.catalog.getAcroForm()?.dict.delete(PDFName.of('XFA'));
  const form = doc.getForm();
  for (const [name, value] of Object.entries(fields)) form.getTextField(name).setText(value);
  await doc.save();
}

const warmStart = performance.now();
await runEdit([{ bytes: cases[1].bytes, name: 'warm.pdf' }], cases[1].request, { edit: version });
const warmMs = performance.now() - warmStart;

console.log(
  `machine: ${os.cpus()[0]?.model ?? 'cpu'} x${os.cpus().length}, node ${process.version}, load average ${os.loadavg()[0].toFixed(1)}`,
);
console.log(`warm-up (encoder load + first edit): ${warmMs.toFixed(0)} ms; runs per case: ${RUNS}`);
// The first run of a form embeds its labels with the sentence encoder; later runs find them
// in the encoder's cache, as a form filled again in the same executor does.
console.log(
  '| document | pages | fields filled | first run ms | p50 ms | p50 ms / page | p50 ms / field | baseline p50 ms | ratio |',
);
console.log('|---|---|---|---|---|---|---|---|---|');
for (const c of cases) {
  const times: number[] = [];
  let pages = 0;
  let fields = 0;
  for (let i = 0; i < RUNS; i++) {
    const start = performance.now();
    const out = await runEdit([{ bytes: c.bytes, name: c.file }], c.request, { edit: version });
    times.push(performance.now() - start);
    pages = out.usage.num_pages;
    fields = out.usage.num_fields;
  }
  const base: number[] = [];
  if (c.baseline) {
    for (let i = 0; i < RUNS; i++) {
      const start = performance.now();
      await baselineRun(c.bytes, c.baseline);
      base.push(performance.now() - start);
    }
  }
  const median = p50(times);
  const baseMedian = base.length > 0 ? p50(base) : undefined;
  console.log(
    `| ${c.name} | ${pages} | ${fields} | ${times[0].toFixed(0)} | ${median.toFixed(1)} | ${(median / pages).toFixed(1)} | ${(median / Math.max(1, fields)).toFixed(1)} | ${baseMedian?.toFixed(1) ?? '-'} | ${baseMedian ? (median / baseMedian).toFixed(1) + 'x' : '-'} |`,
  );
}
