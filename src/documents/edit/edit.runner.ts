/**
 * The edit pipeline as a plain function (runs in an executor process): one document (a PDF
 * with an AcroForm, a flat PDF with `form_schema`, or a DOCX) -> the edited document and a
 * report of each field written, from which instruction, with what confidence.
 */
import { sentenceEncoder } from '../encoder/sentence-encoder.js';
import { UnsupportedDocumentError } from '../readers/document.errors.js';
import { detectDocumentType } from '../readers/file-type.detector.js';
import { checkDocumentInput, checkPageCount } from '../readers/input-limits.js';
import { docxPages } from '../readers/docx.reader.js';
import type { DocumentSource } from '../readers/document.types.js';
import type { EditEngine } from '../versions/engines.js';
import { reportVersions } from '../versions/model-pins.js';
import type { ResolvedVersion } from '../versions/model-version.types.js';
import { editDocx } from './docx-edit.js';
import type {
  EditOutcome,
  EditReport,
  EditRequest,
  FilledField,
  FormField,
  InstructionItem,
} from './edit.types.js';
import type { EditPlan } from './edit-plan.js';
import { FieldScorer } from './field-matching.js';
import { editAcroForm, editFlatPdf } from './pdf-edit.js';

const PDF_MIME = 'application/pdf';
const DOCX_MIME = 'application/vnd.openxmlformats-officedocument.wordprocessingml.document';

function reportOf(plan: EditPlan, filled: FilledField[]): EditReport {
  return {
    filled,
    unmatched_instructions: plan.unmatched.map((item: InstructionItem) => item.text),
    unfilled_fields: plan.unfilled.map((field: FormField) => ({
      field: field.name,
      description: field.labels[0] ?? field.name,
      page: field.page ?? null,
    })),
  };
}

/**
 * Pages of a PDF as pdf-lib reads them; 0 when it cannot (an encrypted catalog, a broken
 * page tree): opening the document to edit it then refuses it, naming why.
 */
async function pdfPageCount(bytes: Uint8Array): Promise<number> {
  const { PDFDocument } = await import('pdf-lib');
  try {
    const doc = await PDFDocument.load(bytes, { ignoreEncryption: true, updateMetadata: false });
    return doc.getPageCount();
  } catch {
    return 0;
  }
}

/** Without the encoder (not installed), words alone match instructions to fields. */
function scorerFor(engine: EditEngine): FieldScorer {
  return new FieldScorer(engine === 'form-fill' ? sentenceEncoder() : null);
}

export async function runEdit(
  documents: readonly DocumentSource[],
  request: EditRequest,
  versions: { edit: ResolvedVersion },
  maxPages?: number,
): Promise<EditOutcome> {
  if (documents.length !== 1) {
    throw new UnsupportedDocumentError(`edit takes one document; ${documents.length} were given`);
  }
  const [source] = documents;
  const { fileType } = await detectDocumentType(source.bytes, source.name);
  const scorer = scorerFor(versions.edit.engine as EditEngine);
  const model_versions = reportVersions([versions.edit]);
  if (fileType === 'pdf') {
    const pageCount = await pdfPageCount(source.bytes);
    checkPageCount(pageCount);
    const limit = Math.min(pageCount, maxPages ?? pageCount);
    const edited =
      request.form_schema && request.form_schema.length > 0
        ? await editFlatPdf(source.bytes, request, scorer)
        : await editAcroForm(source.bytes, request, scorer, limit);
    return {
      document: { fileType, totalPages: pageCount },
      edited: {
        base64: Buffer.from(edited.bytes).toString('base64'),
        extension: 'pdf',
        contentType: PDF_MIME,
      },
      result: { form_schema: edited.formSchema, report: reportOf(edited.plan, edited.filled) },
      usage: { num_pages: pageCount, num_fields: edited.filled.length },
      model_versions,
    };
  }
  if (fileType === 'docx') {
    await checkDocumentInput(source.bytes, 'docx');
    const pages = (await docxPages(source.bytes)).length;
    const edited = await editDocx(source.bytes, request, scorer);
    return {
      document: { fileType, totalPages: pages },
      edited: {
        base64: Buffer.from(edited.bytes).toString('base64'),
        extension: 'docx',
        contentType: DOCX_MIME,
      },
      result: { form_schema: null, report: reportOf(edited.plan, edited.filled) },
      usage: { num_pages: pages, num_fields: edited.filled.length },
      model_versions,
    };
  }
  throw new UnsupportedDocumentError(`edit fills PDF and DOCX documents; this one is ${fileType}`);
}
