/**
 * An AcroForm's fields as FormFields: names, tooltips (TU), captions printed next to their
 * widgets, options, date and number formats, maximum lengths. Checkboxes that differ only
 * in their last index ("FilingStatus.c1_01[0..4]") are one choice, as a radio group is.
 */
import {
  type PDFDocument,
  type PDFPage,
  PDFCheckBox,
  PDFDropdown,
  type PDFField,
  PDFName,
  PDFOptionList,
  PDFRadioGroup,
  PDFTextField,
  type PDFWidgetAnnotation,
  PDFString,
  PDFHexString,
  PDFDict,
  PDFStream,
  decodePDFRawStream,
  PDFRawStream,
} from 'pdf-lib';
import type { FieldFormat, FieldOption, FormField } from './edit.types.js';
import { dateLayoutIn } from './field-values.js';
import { type CaptionedBox, pageCaptions, type Phrase, type Rect } from './page-phrases.js';

/** A FormField with what filling it needs. */
export interface PdfFormField extends FormField {
  /** The AcroForm fields behind it (several for a group of sibling checkboxes). */
  targets: PDFField[];
  rect?: Rect;
  pageSize?: { width: number; height: number };
}

function textOf(value: unknown): string | undefined {
  if (value instanceof PDFString || value instanceof PDFHexString) return value.decodeText();
  return undefined;
}

/** The JavaScript of a field's format/keystroke actions (AFDate_FormatEx("mm/dd/yyyy")). */
function formatScript(field: PDFField): string {
  const actions = field.acroField.dict.lookup(PDFName.of('AA'));
  if (!(actions instanceof PDFDict)) return '';
  let script = '';
  for (const key of ['F', 'K']) {
    const action = actions.lookup(PDFName.of(key));
    if (!(action instanceof PDFDict)) continue;
    const js = action.lookup(PDFName.of('JS'));
    const text = textOf(js);
    if (text) script += text;
    else if (js instanceof PDFRawStream)
      script += Buffer.from(decodePDFRawStream(js).decode()).toString('latin1');
    else if (js instanceof PDFStream) script += '';
  }
  return script;
}

function formatOf(field: PDFField, labels: readonly string[]): FieldFormat | undefined {
  const script = formatScript(field);
  const date = /AFDate_(?:Format|Keystroke)Ex\(\s*"([^"]+)"/u.exec(script)?.[1]?.toLowerCase();
  const number = /AFNumber_(?:Format|Keystroke)\(\s*(\d+)/u.exec(script);
  const layout =
    date && /d/.test(date) && /m/.test(date) && /y/.test(date) ? date : dateLayoutIn(labels);
  if (layout) return { date: layout };
  if (number) return { decimals: Number(number[1]) };
  return undefined;
}

/** Generic words of authoring tools ("Text1", "Check Box3") name nothing. */
const GENERIC =
  /\b(?:text|check\s?box|checkbox|field|dropdown|drop\s?down|list\s?box|combo\s?box|group|radio\s?button|button|untitled|page|form|topmost\s?subform|subform)\s*\d*\b/giu;

/** A name part as words ("FilingStatus[0]" -> "Filing Status"), or '' when it says nothing. */
function nameWords(part: string): string {
  const words = part
    .replace(/\[\d+\]/gu, '')
    .replace(/([a-z])([A-Z])/gu, '$1 $2')
    .replace(/[_.#-]+/gu, ' ')
    .replace(GENERIC, ' ')
    .replace(/\b[a-z]{0,2}\d+(?:\s\d+)*\b/giu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  return /\p{L}{2,}/u.test(words) ? words : '';
}

function widgetPage(doc: PDFDocument, widget: PDFWidgetAnnotation): number {
  const pages = doc.getPages();
  const ref = widget.P();
  const byRef = ref ? pages.findIndex((page) => page.ref === ref) : -1;
  if (byRef >= 0) return byRef;
  const widgetRef = doc.context.getObjectRef(widget.dict);
  return pages.findIndex((page) =>
    page.node
      .Annots()
      ?.asArray()
      .some((annot) => annot === widgetRef),
  );
}

interface Placed {
  page: number;
  rect: Rect;
  captions: string[];
}

/** US Letter, what viewers assume for a page without a MediaBox. */
const LETTER = { width: 612, height: 792 };

/** A page's size; US Letter when it has no readable MediaBox (none of its own or inherited). */
export function pageSizeOf(page: PDFPage): { width: number; height: number } {
  try {
    return page.getSize();
  } catch {
    return LETTER;
  }
}

/** A field's widgets; none when its dictionary is malformed (its Kids not widgets). */
function widgetsOf(field: PDFField): PDFWidgetAnnotation[] {
  try {
    return field.acroField.getWidgets();
  } catch {
    return [];
  }
}

/** A widget's box; undefined when its Rect is malformed (not four numbers). */
function rectangleOf(widget: PDFWidgetAnnotation): Rect | undefined {
  try {
    return widget.getRectangle();
  } catch {
    return undefined;
  }
}

/** Tick boxes (checkboxes, radio buttons) are also captioned by the phrase after them. */
const isTickBox = (field: PDFField) =>
  field instanceof PDFCheckBox || field instanceof PDFRadioGroup;

/**
 * Every widget of the form placed on its page with its captions, each printed phrase
 * captioning only the widget nearest to it (see pageCaptions).
 */
function placeWidgets(
  doc: PDFDocument,
  fields: readonly PDFField[],
  phrases: Phrase[][],
): Map<PDFDict, Placed> {
  const byPage = new Map<number, { dict: PDFDict; box: CaptionedBox }[]>();
  for (const field of fields) {
    for (const widget of widgetsOf(field)) {
      const rect = rectangleOf(widget);
      if (!rect) continue;
      const page = Math.max(0, widgetPage(doc, widget));
      const box = { rect, tickBox: isTickBox(field) };
      byPage.set(page, [...(byPage.get(page) ?? []), { dict: widget.dict, box }]);
    }
  }
  const placed = new Map<PDFDict, Placed>();
  for (const [page, widgets] of byPage) {
    const captions = pageCaptions(
      widgets.map((w) => w.box),
      phrases[page] ?? [],
    );
    widgets.forEach(({ dict, box }, i) =>
      placed.set(dict, { page, rect: box.rect, captions: captions[i] }),
    );
  }
  return placed;
}

/** Whether each of several widgets turns on to a value of its own. */
function distinctOnValues(widgets: readonly PDFWidgetAnnotation[]): boolean {
  const values = widgets.map((w) => w.getOnValue()?.decodeText());
  return (
    widgets.length > 1 &&
    values.every((v) => v !== undefined) &&
    new Set(values).size === widgets.length
  );
}

/** Reads the fields of `doc`'s AcroForm; `phrases` are its pages' printed phrases. */
export function readPdfForm(doc: PDFDocument, phrases: Phrase[][]): PdfFormField[] {
  // An XFA part would keep showing the empty form in viewers that prefer it; pdf-lib drops it
  // too, but says so on the console, so it is removed here first.
  doc.catalog.getAcroForm()?.dict.delete(PDFName.of('XFA'));
  const fields = doc.getForm().getFields();
  const places = placeWidgets(doc, fields, phrases);
  const placeOf = (widget: PDFWidgetAnnotation): Placed =>
    places.get(widget.dict) ?? { page: 0, rect: { x: 0, y: 0, width: 0, height: 0 }, captions: [] };
  const out: PdfFormField[] = [];
  const siblings = new Map<string, PDFCheckBox[]>();
  for (const field of fields) {
    if (field instanceof PDFCheckBox) {
      const base = field.getName().replace(/\[\d+\]$/u, '');
      siblings.set(base, [...(siblings.get(base) ?? []), field]);
    }
  }
  const pageSize = (page: number) => pageSizeOf(doc.getPage(page));
  const named = (field: PDFField, captions: string[]) => {
    const parts = field.getName().split('.');
    const own = nameWords(parts[parts.length - 1] ?? '');
    const parent = nameWords(parts[parts.length - 2] ?? '');
    const tooltip = textOf(field.acroField.dict.lookup(PDFName.of('TU')));
    return [
      ...new Set(
        [tooltip, ...captions, own, parent].filter((t): t is string => !!t && t.trim() !== ''),
      ),
    ];
  };
  const add = (
    field: PDFField,
    base: Omit<PdfFormField, 'id' | 'order' | 'fill' | 'page'> & { page: number },
  ) => {
    out.push({
      ...base,
      id: field.getName(),
      order: 0,
      fill: !field.isReadOnly(),
      page: base.page + 1,
    });
  };
  /**
   * A choice among boxes (radio buttons, or checkboxes standing for one), labelled as its
   * first box is captioned, less the caption naming that box's own option.
   */
  const addChoice = (
    field: PDFField,
    placed: Placed,
    options: FieldOption[],
    group = { name: field.getName(), targets: [field] },
  ) =>
    add(field, {
      kind: 'choice',
      name: group.name,
      labels: named(
        field,
        placed.captions.filter((c) => !options[0].labels.includes(c)),
      ),
      options,
      targets: group.targets,
      rect: placed.rect,
      pageSize: pageSize(placed.page),
      page: placed.page,
    });
  const grouped = new Set<PDFField>();
  const readField = (field: PDFField): void => {
    if (grouped.has(field)) return;
    const widgets = widgetsOf(field);
    if (widgets.length === 0) return;
    if (field instanceof PDFTextField) {
      const placed = placeOf(widgets[0]);
      const labels = named(field, placed.captions);
      add(field, {
        kind: 'text',
        name: field.getName(),
        labels,
        targets: [field],
        rect: placed.rect,
        pageSize: pageSize(placed.page),
        page: placed.page,
        format: formatOf(field, labels),
        maxLength: field.getMaxLength(),
      });
    } else if (field instanceof PDFCheckBox && distinctOnValues(widgets)) {
      // One checkbox whose boxes each turn on to a value of their own ("a" .. "e", one per
      // filing status) is a choice among its boxes, as a radio group is.
      const placed = placeOf(widgets[0]);
      const options = widgets.map((widget) => ({
        value: widget.getOnValue()?.decodeText() ?? '',
        labels: placeOf(widget).captions.slice(0, 1),
      }));
      addChoice(field, placed, options);
    } else if (field instanceof PDFCheckBox) {
      const group = siblings.get(field.getName().replace(/\[\d+\]$/u, '')) ?? [field];
      const placed = placeOf(widgets[0]);
      const options = group.map((box) => {
        const where = placeOf(box.acroField.getWidgets()[0]);
        return { value: box.getName(), labels: where.captions.slice(0, 1) };
      });
      // Boxes of one choice are told apart by their captions; boxes captioned alike (the
      // same consent box in two sections of a form) are each a checkbox of their own.
      const captioned = new Set(options.map((o) => o.labels[0] ?? ''));
      if (group.length < 2 || captioned.size < group.length) {
        add(field, {
          kind: 'checkbox',
          name: field.getName(),
          labels: named(field, placed.captions),
          targets: [field],
          rect: placed.rect,
          pageSize: pageSize(placed.page),
          page: placed.page,
        });
        return;
      }
      group.forEach((box) => grouped.add(box));
      addChoice(field, placed, options, {
        name: field.getName().replace(/\[\d+\]$/u, ''),
        targets: group,
      });
    } else if (field instanceof PDFRadioGroup) {
      const values = field.getOptions();
      const options = widgets.map((widget, i) => {
        // getOptions gives the /Opt texts (what select takes) in widget order, else on-values.
        const value = values[i] ?? widget.getOnValue()?.decodeText() ?? String(i);
        return { value, labels: placeOf(widget).captions.slice(0, 1) };
      });
      addChoice(
        field,
        placeOf(widgets[0]),
        options.filter((o, i) => options.findIndex((p) => p.value === o.value) === i),
      );
    } else if (field instanceof PDFDropdown || field instanceof PDFOptionList) {
      const placed = placeOf(widgets[0]);
      add(field, {
        kind: 'choice',
        name: field.getName(),
        labels: named(field, placed.captions),
        options: field.getOptions().map((o) => ({ value: o, labels: [o] })),
        targets: [field],
        rect: placed.rect,
        pageSize: pageSize(placed.page),
        page: placed.page,
      });
    }
  };
  for (const field of fields) {
    try {
      readField(field);
    } catch (error) {
      // A field whose dictionary pdf-lib cannot read (a malformed MaxLen, Opt or widget) is
      // left out; the rest of the form is still filled.
      process.emitWarning(`edit: field ${field.getName()} not read: ${String(error)}`);
    }
  }
  // Reading order: page, then top to bottom, then left to right.
  out.sort(
    (a, b) =>
      (a.page ?? 0) - (b.page ?? 0) ||
      (b.rect?.y ?? 0) - (a.rect?.y ?? 0) ||
      (a.rect?.x ?? 0) - (b.rect?.x ?? 0),
  );
  out.forEach((field, i) => (field.order = i));
  return out;
}
