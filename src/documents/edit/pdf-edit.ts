/**
 * Editing a PDF: fills its AcroForm fields, or, with a `form_schema`, writes into the
 * schema's boxes (a flat form). Flattening, font sizes and overflow pages as edit_options say.
 */
import {
  PDFCheckBox,
  PDFDocument,
  PDFName,
  PDFDropdown,
  PDFOptionList,
  PDFRadioGroup,
  PDFTextField,
  rgb,
} from 'pdf-lib';
import { CorruptDocumentError, UnsupportedDocumentError } from '../readers/document.errors.js';
import type { EditRequest, EditWidget, FilledField, FormField } from './edit.types.js';
import { type Decision, planEdits, type EditPlan } from './edit-plan.js';
import type { FieldScorer } from './field-matching.js';
import { readPagePhrases } from './page-phrases.js';
import { pageSizeOf, type PdfFormField, readPdfForm } from './pdf-form.js';
import {
  fittingSize,
  fontsFor,
  type Fonts,
  MIN_FONT_SIZE,
  type OverflowEntry,
  wrap,
  writeOverflowPages,
} from './pdf-text.js';

interface PdfEditResult {
  bytes: Uint8Array;
  pages: number;
  plan: EditPlan;
  filled: FilledField[];
  formSchema: EditWidget[];
}

const DEFAULT_FONT_SIZE = 10;

async function openForEdit(bytes: Uint8Array): Promise<PDFDocument> {
  try {
    return await PDFDocument.load(bytes, { updateMetadata: false });
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (/encrypted/iu.test(message))
      throw new CorruptDocumentError(
        'pdf',
        'The PDF is encrypted; an encrypted PDF cannot be edited',
      );
    throw new CorruptDocumentError('pdf', `The PDF cannot be read: ${message}`, { cause: error });
  }
}

function describe(field: FormField): string {
  return field.labels[0] ?? field.name;
}

function shown(write: Decision['write']): string {
  if (write.kind === 'text') return write.text;
  if (write.kind === 'check') return write.on ? 'checked' : 'unchecked';
  return write.option.labels[0] ?? write.option.value;
}

function reportOf(decision: Decision, extra: Partial<FilledField> = {}): FilledField {
  return {
    field: decision.field.name,
    description: describe(decision.field),
    value: shown(decision.write),
    instruction: decision.item?.text ?? null,
    confidence: decision.confidence,
    page: decision.field.page ?? null,
    ...extra,
  };
}

/** Writes one decision into its AcroForm field(s); the text's fit is judged at `size`. */
async function fillField(
  decision: Decision<PdfFormField>,
  fonts: Fonts,
  fontSize: number | null | undefined,
  overflow: OverflowEntry[] | null,
): Promise<FilledField> {
  const { field, write } = decision;
  const target = field.targets[0];
  if (write.kind === 'check') {
    for (const box of field.targets) {
      if (!(box instanceof PDFCheckBox)) continue;
      if (write.on) box.check();
      else box.uncheck();
    }
    return reportOf(decision);
  }
  if (write.kind === 'option') {
    if (target instanceof PDFRadioGroup) target.select(write.option.value);
    else if (target instanceof PDFDropdown || target instanceof PDFOptionList)
      target.select(write.option.value);
    else if (target instanceof PDFCheckBox && field.targets.length === 1) {
      // One checkbox with a value per box: that value set, its box on, the others off.
      const on = PDFName.of(write.option.value);
      target.acroField.dict.set(PDFName.of('V'), on);
      for (const widget of target.acroField.getWidgets())
        widget.setAppearanceState(widget.getOnValue() === on ? on : PDFName.of('Off'));
    } else {
      // Sibling checkboxes as one choice: the chosen one ticked, the others cleared.
      for (const box of field.targets) {
        if (!(box instanceof PDFCheckBox)) continue;
        if (box.getName() === write.option.value) box.check();
        else box.uncheck();
      }
    }
    return reportOf(decision);
  }
  if (!(target instanceof PDFTextField)) return reportOf(decision);
  let text = write.text;
  const font = await fonts.for(text);
  const rect = field.rect ?? { width: 200, height: 14 };
  const multiline = target.isMultiline();
  const preferred =
    fontSize ?? Math.min(DEFAULT_FONT_SIZE, Math.max(MIN_FONT_SIZE, rect.height * 0.7));
  const fitting = fittingSize(
    font,
    text,
    preferred,
    rect.width,
    multiline ? rect.height : Math.min(rect.height, preferred * 1.2 + 2),
  );
  let extra: Partial<FilledField> = { fits: fitting !== undefined };
  if (fitting === undefined && overflow) {
    overflow.push({ label: describe(field), text });
    const lines = wrap(font, text, MIN_FONT_SIZE, rect.width - 4);
    text = `${lines[0].split(' ').slice(0, -1).join(' ') || lines[0]} …`;
    extra = { fits: false };
  }
  if (fontSize) target.setFontSize(fontSize);
  target.setText(text);
  target.updateAppearances(font);
  return reportOf(decision, extra);
}

function widgetOf(field: PdfFormField, value: string | null): EditWidget {
  const size = field.pageSize ?? { width: 612, height: 792 };
  const rect = field.rect ?? { x: 0, y: 0, width: 0, height: 0 };
  const type =
    field.kind === 'text'
      ? 'text'
      : field.kind === 'checkbox'
        ? 'checkbox'
        : field.targets[0] instanceof PDFRadioGroup
          ? 'radio'
          : field.targets[0] instanceof PDFCheckBox
            ? 'checkbox'
            : 'dropdown';
  const r = (n: number) => Math.round(n * 10000) / 10000;
  return {
    bbox: {
      page: field.page ?? 1,
      left: r(rect.x / size.width),
      top: r(1 - (rect.y + rect.height) / size.height),
      width: r(rect.width / size.width),
      height: r(rect.height / size.height),
    },
    description: describe(field),
    type,
    value,
  };
}

/** Fills the AcroForm of `bytes` from the instructions. */
export async function editAcroForm(
  bytes: Uint8Array,
  request: EditRequest,
  scorer: FieldScorer,
  maxPages: number,
): Promise<PdfEditResult> {
  const doc = await openForEdit(bytes);
  const phrases = await readPagePhrases(bytes, maxPages);
  const fields = readPdfForm(doc, phrases);
  if (fields.length === 0) {
    throw new UnsupportedDocumentError(
      'The PDF has no form fields; send form_schema, a list of the boxes to write into, ' +
        'each {"bbox": {"page": 1, "left": 0.1, "top": 0.2, "width": 0.3, "height": 0.03}, ' +
        '"description": "what the box asks for", "type": "text"} (bbox in fractions of the ' +
        'page; type text, checkbox, radio, dropdown or barcode)',
    );
  }
  const plan = planEdits(request.edit_instructions, fields, scorer);
  const fonts = fontsFor(doc);
  const options = request.edit_options ?? {};
  const overflow: OverflowEntry[] | null = options.enable_overflow_pages ? [] : null;
  const filled: FilledField[] = [];
  for (const decision of [...plan.decisions]) {
    try {
      filled.push(await fillField(decision, fonts, options.font_size, overflow));
    } catch (error) {
      // A field the library cannot write (a malformed widget, a value it refuses) stays
      // unfilled and is reported so; the rest of the form is still filled.
      plan.decisions.splice(plan.decisions.indexOf(decision), 1);
      plan.unfilled.push(decision.field);
      // Saving would draw its appearance again, and fail the same way.
      for (const target of decision.field.targets) doc.getForm().markFieldAsClean(target.ref);
      if (decision.item) plan.unmatched.push(decision.item);
      process.emitWarning(`edit: field ${decision.field.name} not written: ${String(error)}`);
    }
  }
  const overflowPages = await writeOverflowPages(doc, fonts, overflow ?? []);
  let next = 0;
  for (const entry of filled)
    if (entry.fits === false && overflow) entry.overflow_page = overflowPages[next++];
  const values = new Map(filled.map((f) => [f.field, f.value]));
  const formSchema = fields.map((f) => widgetOf(f, values.get(f.name) ?? null));
  if (options.flatten) doc.getForm().flatten();
  return { bytes: await doc.save(), pages: doc.getPageCount(), plan, filled, formSchema };
}

/** Schema widgets as fields: each widget's description is its label. */
function schemaFields(widgets: readonly EditWidget[]): FormField[] {
  return widgets.map((widget, i) => ({
    id: `widget-${i}`,
    kind: widget.type === 'checkbox' || widget.type === 'radio' ? 'checkbox' : 'text',
    name: widget.description,
    labels: [widget.description],
    format: undefined,
    page: widget.bbox.page,
    order: i,
    preset: widget.value ?? undefined,
    fill: widget.fill !== false,
  }));
}

/** Writes into the `form_schema` boxes of a (flat) PDF. */
export async function editFlatPdf(
  bytes: Uint8Array,
  request: EditRequest,
  scorer: FieldScorer,
): Promise<PdfEditResult> {
  const widgets = request.form_schema ?? [];
  const doc = await openForEdit(bytes);
  const pageCount = doc.getPageCount();
  const outside = widgets.findIndex((w) => w.bbox.page < 1 || w.bbox.page > pageCount);
  if (outside >= 0) {
    throw new UnsupportedDocumentError(
      `form_schema[${outside}] is on page ${widgets[outside].bbox.page}; the PDF has ${pageCount} page${pageCount === 1 ? '' : 's'}`,
    );
  }
  const fields = schemaFields(widgets);
  const plan = planEdits(request.edit_instructions, fields, scorer);
  const fonts = fontsFor(doc);
  const options = request.edit_options ?? {};
  const overflow: OverflowEntry[] | null = options.enable_overflow_pages ? [] : null;
  const filled: FilledField[] = [];
  const color = rgb(0, 0, 0);
  for (const decision of plan.decisions) {
    const widget = widgets[Number(decision.field.id.slice('widget-'.length))];
    const page = doc.getPage(widget.bbox.page - 1);
    const { width: pw, height: ph } = pageSizeOf(page);
    const box = {
      x: widget.bbox.left * pw,
      y: ph - (widget.bbox.top + widget.bbox.height) * ph,
      width: widget.bbox.width * pw,
      height: widget.bbox.height * ph,
    };
    if (decision.write.kind === 'check') {
      if (decision.write.on) {
        const inset = Math.min(box.width, box.height) * 0.2;
        page.drawLine({
          start: { x: box.x + inset, y: box.y + inset },
          end: { x: box.x + box.width - inset, y: box.y + box.height - inset },
          thickness: 1.2,
          color,
        });
        page.drawLine({
          start: { x: box.x + inset, y: box.y + box.height - inset },
          end: { x: box.x + box.width - inset, y: box.y + inset },
          thickness: 1.2,
          color,
        });
      }
      filled.push(reportOf(decision));
      continue;
    }
    const text = decision.write.kind === 'text' ? decision.write.text : shown(decision.write);
    const font = await fonts.for(text);
    const preferred =
      widget.font_size ??
      options.font_size ??
      Math.min(DEFAULT_FONT_SIZE, Math.max(MIN_FONT_SIZE, box.height * 0.7));
    const size = fittingSize(font, text, preferred, box.width, box.height);
    const extra: Partial<FilledField> = { fits: size !== undefined };
    const used = size ?? MIN_FONT_SIZE;
    let lines = wrap(font, text, used, box.width - 4);
    const capacity = Math.max(1, Math.floor((box.height - 2) / (used * 1.2)));
    if (size === undefined && overflow) {
      overflow.push({ label: widget.description, text });
      lines = lines.slice(0, capacity);
      lines[lines.length - 1] = `${lines[lines.length - 1]} …`;
    }
    lines.slice(0, size === undefined && !overflow ? lines.length : capacity).forEach((line, i) => {
      page.drawText(line, {
        x: box.x + 2,
        y: box.y + box.height - (i + 1) * used * 1.2 + used * 0.25,
        size: used,
        font,
        color,
      });
    });
    filled.push(reportOf(decision, extra));
  }
  const overflowPages = await writeOverflowPages(doc, fonts, overflow ?? []);
  let next = 0;
  for (const entry of filled)
    if (entry.fits === false && overflow) entry.overflow_page = overflowPages[next++];
  const values = new Map(plan.decisions.map((d, i) => [d.field.id, filled[i].value]));
  const formSchema = widgets.map((w, i) => ({
    ...w,
    value: values.get(`widget-${i}`) ?? w.value ?? null,
  }));
  return { bytes: await doc.save(), pages: doc.getPageCount(), plan, filled, formSchema };
}
